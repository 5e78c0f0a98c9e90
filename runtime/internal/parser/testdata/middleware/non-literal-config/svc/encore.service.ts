import { Service, type ServiceConfig } from "encore.dev/service";
import { limit } from "./limits";

const config: ServiceConfig = { middlewares: [limit] };

export default new Service("svc", config);
