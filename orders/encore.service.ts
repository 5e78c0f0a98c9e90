import { Service } from "encore.dev/service";

// The illustrative order endpoints, and the order-created topic they publish to.
export default new Service("orders");
