// encore.dev/service: a service is a folder with encore.service.ts; this object only names it.
export interface ServiceConfig {
  middlewares?: unknown[];
}

export class Service {
  public readonly name: string;
  public readonly cfg: ServiceConfig;
  constructor(name: string, cfg?: ServiceConfig) {
    this.name = name;
    this.cfg = cfg ?? {};
  }
}
