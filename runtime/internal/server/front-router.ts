import type { RouteOptions } from "fastify";
import FindMyWay, { type HTTPMethod } from "find-my-way";
import type { IncomingMessage, ServerResponse } from "node:http";
import { isFallbackRoute, markFallback } from "./fallback-routes.ts";
import type { RawInvoker } from "./routes.ts";

export type RawDispatch = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Route config key under which a raw GET/HEAD route hands its invoker to the fast lane. */
export const fastLaneKey = "encoreFastLane";

export interface FrontRouter {
  /** Fastify's onRoute hook: every route Fastify gets is mirrored here, the runtime's own included. */
  readonly onRoute: (route: RouteOptions) => void;
  /** True when the request was served here; false hands it to Fastify. */
  readonly dispatch: RawDispatch;
}

/**
 * Looks at each request before Fastify wraps it, with a mirror of Fastify's routes:
 * - raw GET/HEAD endpoints are dispatched at once: a raw handler uses neither Fastify's
 *   request nor its reply, and building them costs ~15% of the short-link redirect's
 *   throughput;
 * - a request no route matches is tried against the fallback routes ("/!path"), and marked
 *   for Fastify to route there (fallback-routes.ts), so a fallback never shadows a route.
 * The mirror is fed by Fastify's onRoute hook, so a path resolves exactly as Fastify would
 * resolve it (static beats parametric) and no route of the runtime's own is left out.
 */
export function frontRouter(isClosing: () => boolean): FrontRouter {
  const main = FindMyWay({ maxParamLength: 500 });
  const fallback = FindMyWay({ maxParamLength: 500 });
  let active = false;
  let hasFallback = false;
  const noop = () => {};

  const onRoute = (route: RouteOptions): void => {
    const invoke = (route.config as Record<string, unknown> | undefined)?.[fastLaneKey] as RawInvoker | undefined;
    const toFallback = isFallbackRoute(route);
    if (invoke || toFallback) active = true;
    if (toFallback) hasFallback = true;
    const router = toFallback ? fallback : main;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]) as HTTPMethod[];
    for (const method of methods) {
      // Routes that differ only in other constraints resolve alike here: the first stays.
      if (!router.hasRoute(method, route.url)) router.on(method, route.url, noop, invoke ?? null);
    }
  };

  const dispatch: RawDispatch = (req, res) => {
    // While closing, Fastify answers 503 and closes the connection; let it.
    if (!active || isClosing()) return false;
    const method = req.method as HTTPMethod;
    // Only GET/HEAD routes are served here: without fallbacks, anything else is Fastify's at once.
    if (!hasFallback && method !== "GET" && method !== "HEAD") return false;
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const path = query === -1 ? url : url.slice(0, query);
    let inMain = main.find(method, path);
    // Encore's router never matches a parameter to an empty segment ("/" is not "/:code"),
    // which find-my-way does: with a fallback to take such a path, it goes there.
    if (hasFallback && inMain && hasEmptyParam(inMain.params)) inMain = null;
    const found = inMain ?? (hasFallback ? fallback.find(method, path) : null);
    if (!found) return false;
    const invoke = found.store as RawInvoker | null;
    if (invoke) {
      invoke(req, res, found.params);
      return true;
    }
    if (!inMain) markFallback(req);
    return false;
  };

  return { onRoute, dispatch };
}

function hasEmptyParam(params: Record<string, string | undefined>): boolean {
  for (const name in params) if (params[name] === "" && name !== "*") return true;
  return false;
}
