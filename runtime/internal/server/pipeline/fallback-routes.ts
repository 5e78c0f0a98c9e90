import type { RouteOptions } from "fastify";
import type { ConstraintStrategy, Handler, HTTPVersion } from "find-my-way";
import type { IncomingMessage } from "node:http";
import type { EndpointMeta } from "../../meta/types.ts";

/**
 * Fallback routes ("/!path") are tried only when no other route matches, as in Encore
 * (runtimes/core/src/api/paths.rs keeps them in a router of their own, consulted after
 * the main one). They sit in Fastify's router under a constraint that only requests the
 * front router marked (see front-router.ts) carry: Fastify alone would prefer
 * "/app/!rest" over "/:x/y" for "/app/y", a literal segment beating a parameter.
 */
const constraintName = "encoreFallback";
const marked = Symbol("no other route matched");

type Marked = IncomingMessage & { [marked]?: true };

export function isFallbackEndpoint(meta: EndpointMeta): boolean {
  return meta.pathParams.some((param) => param.fallback === true);
}

/** The route options that put a fallback endpoint's route behind the constraint. */
export function fallbackConstraints(meta: EndpointMeta): Pick<RouteOptions, "constraints"> {
  return isFallbackEndpoint(meta) ? { constraints: { [constraintName]: "yes" } } : {};
}

export function isFallbackRoute(route: Pick<RouteOptions, "constraints">): boolean {
  return (route.constraints as Record<string, unknown> | undefined)?.[constraintName] !== undefined;
}

/** Called by the front router when no other route matched but a fallback route does. */
export function markFallback(req: IncomingMessage): void {
  (req as Marked)[marked] = true;
}

/** Fastify's constraint strategy: unmarked requests never reach a fallback route, marked ones nothing else. */
export const fallbackStrategy: ConstraintStrategy<HTTPVersion.V1, string> = {
  name: constraintName,
  mustMatchWhenDerived: true,
  storage() {
    const stores = new Map<string, Handler<HTTPVersion.V1>>();
    return {
      get: (value) => stores.get(value) ?? null,
      set: (value, store) => void stores.set(value, store),
    };
  },
  // find-my-way's type says the value is always derived; undefined is how a request opts out.
  deriveConstraint: (req) => ((req as Marked)[marked] ? "yes" : (undefined as unknown as string)),
};
