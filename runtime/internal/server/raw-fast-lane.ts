import FindMyWay, { type HTTPMethod } from "find-my-way";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Endpoint } from "../registry/endpoints.ts";
import { healthPath, objectsPath } from "../meta/runtime-routes.ts";
import { routeMethods, staticPrefix, toFastifyPath, type RawInvoker } from "./routes.ts";

export type RawDispatch = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Dispatches raw GET/HEAD endpoints before Fastify wraps the request: a raw handler
 * uses neither Fastify's request nor its reply, and building them costs ~15% of the
 * short-link redirect's throughput. The router holds every public route, so a path
 * resolves exactly as Fastify would resolve it (static beats parametric); anything
 * that is not such a raw route returns false and goes to Fastify as usual.
 */
export function rawFastLane(
  endpoints: readonly Endpoint[],
  invokers: ReadonlyMap<Endpoint, RawInvoker>,
  isClosing: () => boolean,
): RawDispatch | null {
  const eligible = endpoints.filter(
    (e) => e.meta.kind === "raw" && routeMethods(e.meta).every((m) => m === "GET" || m === "HEAD"),
  );
  if (eligible.length === 0) return null;

  const router = FindMyWay({ maxParamLength: 500 });
  const noop = () => {};
  router.on(["GET", "HEAD"], healthPath, noop, null);
  router.on(["GET", "HEAD", "PUT"], `${objectsPath}/:bucket/*`, noop, null);
  for (const endpoint of endpoints) {
    const { meta } = endpoint;
    const path = meta.kind === "static" ? `${staticPrefix(meta.path)}*` : toFastifyPath(meta.path);
    const store = eligible.includes(endpoint) ? invokers.get(endpoint)! : null;
    router.on(routeMethods(meta) as HTTPMethod[], path, noop, store);
  }

  return (req, res) => {
    // While closing, Fastify answers 503 and closes the connection; let it.
    if (isClosing()) return false;
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const found = router.find(req.method as HTTPMethod, query === -1 ? url : url.slice(0, query));
    const invoke = found?.store as RawInvoker | null | undefined;
    if (!invoke) return false;
    invoke(req, res, found!.params);
    return true;
  };
}

