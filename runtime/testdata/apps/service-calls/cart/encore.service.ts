import { Service } from "encore.dev/service";

// The cart service prices a basket by asking the catalog.
export default new Service("cart");
