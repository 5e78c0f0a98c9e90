import { Service } from "encore.dev/service";

// Variant A of the spec: 6-character codes, click counting, stats.
export default new Service("url");
