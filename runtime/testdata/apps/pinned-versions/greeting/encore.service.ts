import { Service } from "encore.dev/service";

// The greeting service: everything under greeting/ belongs to it.
export default new Service("greeting");
