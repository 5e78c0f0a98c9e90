import { declareGateway } from "../../internal/registry/gateway.ts";
import type { AuthHandlerBrand } from "../auth/mod.ts";

export interface GatewayConfig {
  authHandler?: AuthHandlerBrand;
}

/**
 * The API gateway: every request from outside passes it, and it runs the auth handler.
 * Constructing it hands the auth handler to the runtime, as in Encore, so the handler
 * itself need not be exported.
 * @example
 * export const gateway = new Gateway({ authHandler: auth });
 */
export class Gateway {
  public readonly name = "api-gateway";
  public readonly cfg: GatewayConfig;
  constructor(cfg: GatewayConfig) {
    this.cfg = cfg;
    declareGateway(cfg.authHandler);
  }
}
