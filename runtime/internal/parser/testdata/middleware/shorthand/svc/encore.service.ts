import { Service } from "encore.dev/service";
import { limit } from "./limits";

const middlewares = [limit];

export default new Service("svc", { middlewares });
