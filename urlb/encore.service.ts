import { Service } from "encore.dev/service";

// Variant B of the spec: 8-character ids, no click counting (Encore's tutorial shape).
export default new Service("urlb");
