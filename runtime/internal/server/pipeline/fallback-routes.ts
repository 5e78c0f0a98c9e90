import type { RouteOptions } from "fastify";
import type { IncomingMessage } from "node:http";
import type { EndpointMeta } from "../../meta/types.ts";
import { requestMark } from "./request-mark.ts";

/**
 * Fallback routes ("/!path") are tried only when no other route matches, as in Encore
 * (runtimes/core/src/api/paths.rs keeps them in a router of their own, consulted after
 * the main one). They sit in Fastify's router under a constraint that only requests the
 * front router marked (see front-router.ts) carry: Fastify alone would prefer
 * "/app/!rest" over "/:x/y" for "/app/y", a literal segment beating a parameter.
 */
/** Unmarked requests never reach a fallback route, marked ones nothing else. */
const noOtherRoute = requestMark("encoreFallback", "no other route matched", true);

export function isFallbackEndpoint(meta: EndpointMeta): boolean {
  return meta.pathParams.some((param) => param.fallback === true);
}

/** The route options that put a fallback endpoint's route behind the constraint. */
export function fallbackConstraints(meta: EndpointMeta): Pick<RouteOptions, "constraints"> {
  return isFallbackEndpoint(meta) ? { constraints: { [noOtherRoute.name]: "yes" } } : {};
}

export function isFallbackRoute(route: Pick<RouteOptions, "constraints">): boolean {
  return noOtherRoute.guards(route);
}

/** Called by the front router when no other route matched but a fallback route does. */
export function markFallback(req: IncomingMessage): void {
  noOtherRoute.set(req);
}

/** Fastify's constraint strategy for fallback routes. */
export const fallbackStrategy = noOtherRoute.strategy;
