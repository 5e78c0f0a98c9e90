import { Service } from "encore.dev/service";
import { limit } from "./limits";

const shared = { middlewares: [limit] };

export default new Service("svc", { ...shared });
