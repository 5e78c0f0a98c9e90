import type { AuthHandlerBrand } from "../auth/mod.ts";

// The Gateway is where Encore attaches the auth handler. Inert, like every declaration:
// the runtime reads the auth handler from the generated metadata.
export interface GatewayConfig {
  authHandler?: AuthHandlerBrand;
}

/**
 * The API gateway: every request from outside passes it, and it runs the auth handler.
 * @example
 * export const gateway = new Gateway({ authHandler: auth });
 */
export class Gateway {
  public readonly name = "api-gateway";
  public readonly cfg: GatewayConfig;
  constructor(cfg: GatewayConfig) {
    this.cfg = cfg;
  }
}
