import type { onRequestHookHandler, RouteOptions } from "fastify";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { EndpointMeta } from "../../meta/types.ts";
import { runtimeService, type Meter, type RouteMeter } from "../../metrics/mod.ts";
import { requestIdOf, type IdentifiedRequest } from "../../reqtrack/request-id.ts";
import type { RawResponse } from "./raw-response.ts";
import { routeMethods, staticPrefix, toFastifyPath } from "./route-paths.ts";

type Serve = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * Wraps the server's request handler. Every response carries x-request-id, set before
 * anything answers, so the raw fast lane, 404s of unmatched paths, errors, static files
 * and the runtime's own routes all have it. With a meter, each response's time and outcome
 * are counted when it closes, against the route that took it (see routeLabels and the raw
 * invokers), or the one "unmatched" series: a listener and a property per request, no
 * other allocation.
 */
export function observeRequests(serve: Serve, meter: Meter | null): (req: IncomingMessage, res: ServerResponse) => void {
  if (meter === null) {
    return (req, res) => {
      identify(req, res);
      serve(req, res);
    };
  }
  const unmatched = meter.unmatched;
  function record(this: RawResponse): void {
    const seconds = (performance.now() - this.startedAt) / 1000;
    // Closed before its end was written: the client left (Encore's "canceled", HTTP 499).
    if (!this.writableFinished) (this.route ?? unmatched).record(499, "canceled", seconds);
    else (this.route ?? unmatched).record(this.statusCode, this.errorCode, seconds);
  }
  return (req, res) => {
    identify(req, res);
    (res as RawResponse).startedAt = performance.now();
    res.on("close", record);
    serve(req, res);
  };
}

/** The request's id, for handlers (currentRequest().headers) and for the response to write with its headers (raw-response.ts). */
function identify(req: IncomingMessage, res: ServerResponse): void {
  const id = requestIdOf(req);
  (req as IdentifiedRequest).requestId = id;
  (res as RawResponse).requestId = id;
}

/**
 * Fastify's onRoute hook while metrics are on: each route gets, once, the series of the
 * endpoint it serves (the runtime's own routes: by their route path), which a hook of
 * the route hands to its responses. Requests Fastify answers without a route (404, 503
 * while closing) stay "unmatched".
 */
export function routeLabels(exposed: readonly EndpointMeta[], meter: Meter): (route: RouteOptions) => void {
  const byRoute = new Map<string, EndpointMeta>();
  for (const meta of exposed) {
    const url = meta.kind === "static" ? `${staticPrefix(meta.path)}*` : toFastifyPath(meta.path);
    for (const method of routeMethods(meta)) byRoute.set(`${method} ${url}`, meta);
  }
  const endpointOf = (route: RouteOptions): EndpointMeta | undefined => {
    for (const method of [route.method].flat()) {
      // Fastify adds HEAD to GET routes of its own accord: they serve the GET endpoint.
      const meta = byRoute.get(`${method} ${route.url}`) ?? (method === "HEAD" ? byRoute.get(`GET ${route.url}`) : undefined);
      if (meta) return meta;
    }
    return undefined;
  };
  return (route) => {
    const meta = endpointOf(route);
    const series: RouteMeter = meta ? meter.route(meta.service, meta.name, meta.kind === "typed") : meter.route(runtimeService, route.url, false);
    const label: onRequestHookHandler = (_req, reply, done) => {
      (reply.raw as RawResponse).route = series;
      done();
    };
    route.onRequest = route.onRequest === undefined ? [label] : [label, ...[route.onRequest].flat()];
  };
}
