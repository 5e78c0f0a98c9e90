import { Service } from "encore.dev/service";

// The catalog service knows the products and their prices.
export default new Service("catalog");
