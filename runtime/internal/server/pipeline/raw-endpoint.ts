import type { FastifyInstance, RouteOptions } from "fastify";
import type { IncomingMessage, ServerResponse } from "node:http";
import { meter } from "../../metrics/mod.ts";
import { MiddlewareRequest } from "../../middleware/middleware.ts";
import type { Endpoint } from "../../registry/endpoints.ts";
import { ApiCallRequest } from "../../reqtrack/api-call.ts";
import { bindEvents, runWithRequest, type AuthData } from "../../reqtrack/mod.ts";
import { recorder } from "../../tracing/mod.ts";
import { compileAuthStep } from "./auth.ts";
import { failRequest } from "./errors.ts";
import { fallbackConstraints } from "./fallback-routes.ts";
import type { RawResponse } from "./raw-response.ts";
import { handlerOf, type NodeInvoker, type RouteContext } from "./route-context.ts";
import { routeMethods, toFastifyPath } from "./route-paths.ts";

type Source = Record<string, unknown>;

/**
 * Compiled per raw endpoint at boot; serves it on both lanes (the fast lane calls it
 * directly, Fastify's route through rawRoute). The handler gets the response to write, so
 * failures (thrown, a rejected promise from an async handler, or the auth step) are
 * answered here in Encore's format. A request without auth parameters to an endpoint that
 * does not need them, and that no middleware targets, reaches the handler synchronously,
 * with no promise: a scan of the header names and one small request object (what
 * currentRequest() and getAuthData() read) are all it adds. Middlewares, when some target
 * it, run around it. With tracing on when it is compiled, all of it runs inside the
 * request's root span.
 */
export function rawInvoker(endpoint: Endpoint, ctx: RouteContext): NodeInvoker {
  const { meta } = endpoint;
  const traces = recorder;
  const handler = handlerOf(endpoint, traces);
  const authenticate = compileAuthStep(meta.auth, ctx.auth);
  const chain = endpoint.chain ?? null;
  const call = (req: IncomingMessage, res: ServerResponse, routeParams: Source, authData: AuthData | null): void => {
    const request = new ApiCallRequest(meta, authData, req, routeParams, undefined);
    // A body arrives later, in events from the connection: they must see this request too.
    if (req.method !== "GET" && req.method !== "HEAD") bindEvents(req, request);
    if (chain) {
      // Response headers and status come from the raw handler's own writes, as in Encore.
      const first = new MiddlewareRequest(undefined, req, res);
      runWithRequest(request, () => chain(request, first, () => handler(req, res))).catch((err: unknown) => failRaw(err, req, res, ctx));
      return;
    }
    try {
      const result = runWithRequest(request, () => handler(req, res));
      if (result instanceof Promise) result.catch((err: unknown) => failRaw(err, req, res, ctx));
    } catch (err) {
      failRaw(err, req, res, ctx);
    }
  };
  const invoke: NodeInvoker = (req, res, routeParams) => {
    let pending: Promise<AuthData | null> | null;
    try {
      pending = authenticate(req, null);
    } catch (err) {
      return failRaw(err, req, res, ctx);
    }
    if (pending === null) return call(req, res, routeParams, null);
    pending.then(
      (authData) => call(req, res, routeParams, authData),
      (err: unknown) => failRaw(err, req, res, ctx),
    );
  };
  const served: NodeInvoker = traces === null ? invoke : (req, res, routeParams) => traces.request(meta, req, res, () => invoke(req, res, routeParams));
  // The fast lane answers before Fastify, so no route hook labels its responses: this does, with series found now.
  if (meter === null) return served;
  const series = meter.route(meta.service, meta.name, false);
  return (req, res, routeParams) => {
    (res as RawResponse).route = series;
    served(req, res, routeParams);
  };
}

/** Whether the fast lane may serve a raw endpoint: GET/HEAD only, with nothing for Fastify to read. */
export function fitsRawFastLane(endpoint: Endpoint): boolean {
  return routeMethods(endpoint.meta).every((m) => m === "GET" || m === "HEAD");
}

/** Fastify's route of a raw endpoint: Node's request and response handed over untouched, body unread. */
export function rawRoute(endpoint: Endpoint, invoke: NodeInvoker): RouteOptions {
  return {
    method: routeMethods(endpoint.meta),
    url: toFastifyPath(endpoint.meta.path),
    ...fallbackConstraints(endpoint.meta),
    // HEAD is listed explicitly when wanted; Fastify must not add one on its own.
    exposeHeadRoute: false,
    handler: (req, reply) => {
      reply.hijack();
      invoke(req.raw, reply.raw, req.params as Source);
    },
  };
}

/** Routes raw endpoints in a scope whose parser leaves the body unread; `toRoute` gives the route of each, when the scope is loaded. */
export function registerInRawScope<R>(server: FastifyInstance, routes: readonly R[], toRoute: (route: R) => RouteOptions): void {
  if (routes.length === 0) return;
  void server.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_req, _payload, done) => done(null));
    for (const route of routes) scope.route(toRoute(route));
  });
}

function failRaw(err: unknown, req: IncomingMessage, res: ServerResponse, ctx: RouteContext): void {
  failRequest(err, req, res, ctx.exposeInternalErrors, "raw endpoint failed", ctx.errorExtras);
}
