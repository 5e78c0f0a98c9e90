import { Service } from "encore.dev/service";

// The fulfillment service turns placed orders into shipments, in its own database.
export default new Service("fulfillment");
