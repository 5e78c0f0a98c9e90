import type { HTTPMethod } from "find-my-way";
import type { IncomingMessage, ServerResponse } from "node:http";
import { markFallback } from "./fallback-routes.ts";
import type { RouteTable, TableEntry } from "./route-table.ts";

/** True when the request was served here; false hands it to Fastify. */
export type FrontDispatch = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Looks at each request before Fastify wraps it, in the server's route table (route-table.ts):
 * - a route with a fast lane is served at once, on Node's request and response;
 * - a request no other route matches but a fallback route ("/!path") does is marked for
 *   Fastify to route there (fallback-routes.ts), so a fallback never shadows a route.
 * Anything else goes to Fastify, which looks the path up again in its own router: a route
 * found here cannot be handed over, as Fastify's router is the only way into its request
 * lifecycle. Only GET and HEAD requests (the methods fast lanes serve) and requests of a
 * method some fallback route answers are looked up here; any other goes to Fastify at once.
 */
export function frontRouter(table: RouteTable, isClosing: () => boolean): FrontDispatch {
  return (req, res) => {
    if (isClosing()) {
      refuseWhileClosing(res);
      return true;
    }
    if (!table.active) return false;
    const method = req.method as HTTPMethod;
    if (method !== "GET" && method !== "HEAD" && !table.fallbackMethods.has(method)) return false;
    const url = req.url ?? "/";
    const query = url.indexOf("?");
    const found = table.find(method, query === -1 ? url : url.slice(0, query));
    if (found === null) return false;
    const { fastLane, fallback } = found.store as TableEntry;
    if (fastLane !== null) {
      fastLane(req, res, found.params);
      return true;
    }
    if (fallback) markFallback(req);
    return false;
  };
}

const closingBody = JSON.stringify({ code: "unavailable", message: "the server is shutting down", details: null });

/**
 * A request that arrives on an open connection once the server began to close: 503 in
 * Encore's error format, and the connection closed, so the client retries elsewhere.
 * (Fastify's own answer, `return503OnClosing`, has a body of its own shape.)
 */
function refuseWhileClosing(res: ServerResponse): void {
  res.writeHead(503, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(closingBody), connection: "close" });
  res.end(closingBody);
}
