import { Service } from "encore.dev/service";
import { limit } from "./limits";

// @ts-expect-error -- TypeScript refuses a duplicate key too
export default new Service("svc", { middlewares: [], middlewares: [limit] });
