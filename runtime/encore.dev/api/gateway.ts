// The Gateway is where Encore attaches the auth handler. Inert, like every declaration:
// the runtime reads the auth handler from the generated metadata.
export interface GatewayConfig {
  authHandler?: unknown;
}

export class Gateway {
  public readonly name = "api-gateway";
  public readonly cfg: GatewayConfig;
  constructor(cfg?: GatewayConfig) {
    this.cfg = cfg ?? {};
  }
}
