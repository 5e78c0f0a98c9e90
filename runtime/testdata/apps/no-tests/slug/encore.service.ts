import { Service } from "encore.dev/service";

// The slug service: everything under slug/ belongs to it.
export default new Service("slug");
