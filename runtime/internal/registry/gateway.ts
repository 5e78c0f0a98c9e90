/**
 * The auth handler the app's Gateway was constructed with. Encore's runtime takes the
 * handler from the Gateway, not from a module export, so an auth handler that is not
 * exported, or is written inline in the Gateway's options, runs all the same. Set when
 * the module declaring the Gateway is imported (the generated handler map imports it).
 */
let gatewayAuthHandler: unknown = undefined;

export function declareGateway(authHandler: unknown): void {
  gatewayAuthHandler = authHandler;
}

/** The handler given to `new Gateway({ authHandler })`; undefined when no Gateway was constructed. */
export function declaredAuthHandler(): unknown {
  return gatewayAuthHandler;
}
