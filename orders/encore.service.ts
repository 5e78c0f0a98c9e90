import { Service } from "encore.dev/service";

// The illustrative order endpoints (SPEC 4.3); for now, the topic they publish to.
export default new Service("orders");
