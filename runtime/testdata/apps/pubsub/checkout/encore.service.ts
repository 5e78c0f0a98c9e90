import { Service } from "encore.dev/service";

// The checkout service takes orders and announces them; it keeps no state of its own.
export default new Service("checkout");
