import { Service } from "encore.dev/service";
import { limit } from "./limits";

export default new Service("svc", { middlewares: [limit] });
