import { Service } from "encore.dev/service";

// The catalog keeps products in a cache cluster only: what a product page shows, and how often it was seen.
export default new Service("catalog");
