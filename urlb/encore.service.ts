import { Service } from "encore.dev/service";

// The second variant of short links: 8-character ids, no click counting (Encore's tutorial shape).
export default new Service("urlb");
