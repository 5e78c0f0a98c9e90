// encore.dev/service: a service is a folder with encore.service.ts; this object names it
// and holds its middlewares, which the runtime reads from it at boot.
import type { Middleware } from "../../internal/middleware/middleware.ts";

export interface ServiceConfig {
  /** Run, in this order, around the handlers of the service's endpoints that each one targets. */
  middlewares?: Middleware[];
}

export class Service {
  public readonly name: string;
  public readonly cfg: ServiceConfig;
  constructor(name: string, cfg?: ServiceConfig) {
    this.name = name;
    this.cfg = cfg ?? {};
  }
}
