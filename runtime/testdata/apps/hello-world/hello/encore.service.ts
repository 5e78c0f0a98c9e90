import { Service } from "encore.dev/service";

// The greeting service: everything under hello/ belongs to it.
export default new Service("hello");
