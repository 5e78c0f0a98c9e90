import { Service } from "encore.dev/service";

export const extra = new Service("extra");
