import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods, RouteOptions } from "fastify";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { EndpointMeta } from "../meta/types.ts";
import { MiddlewareRequest } from "../middleware/middleware.ts";
import type { Endpoint, Handler } from "../registry/endpoints.ts";
import { meter } from "../metrics/mod.ts";
import { ApiCallRequest } from "../reqtrack/api-call.ts";
import { bindEvents, runWithRequest, type AuthData } from "../reqtrack/mod.ts";
import { recorder, type SpanRecorder } from "../tracing/mod.ts";
import { compileAuthStep, type Authenticator } from "./auth.ts";
import { fallbackConstraints } from "./fallback-routes.ts";
import { fastLaneKey } from "./front-router.ts";
import { retryAfterOf, toWire } from "./errors.ts";
import { logFailure } from "./failure-log.ts";
import { noteErrorCode, type RawResponse } from "./raw-response.ts";
import { compileParamsStep } from "./request.ts";
import { applyResponseParts } from "./response-parts.ts";
import { serializerSchema } from "./response-schema.ts";
import { fitsTypedLane, typedLaneInvoker } from "./typed-lane.ts";

type Source = Record<string, unknown>;

/** Encore's default body limit. */
export const defaultBodyLimit = 2 * 1024 * 1024;

const anyMethod: HTTPMethods[] = ["DELETE", "GET", "HEAD", "PATCH", "POST", "PUT", "OPTIONS"];

/** Encore path syntax to Fastify's: "/files/*path" and "/!path" become "/files/*" and "/*". */
export function toFastifyPath(path: string): string {
  return path.replace(/\/[*!][A-Za-z0-9_]+$/, "/*");
}

/** The folder prefix of a static endpoint's path: "/assets/*path" becomes "/assets/", "/!path" "/". */
export function staticPrefix(path: string): string {
  return path.replace(/[:*!][A-Za-z0-9_]*$/, "");
}

export function routeMethods(meta: EndpointMeta): HTTPMethods[] {
  return meta.methods.includes("*") ? anyMethod : (meta.methods as HTTPMethods[]);
}

/** What every route of one server shares, settled at boot. */
export interface RouteContext {
  /** The app's auth handler, compiled; null when the app has none. */
  readonly auth: Authenticator | null;
  readonly exposeInternalErrors: boolean;
  readonly trustProxy: boolean;
}

/**
 * The endpoint's handler, in a "handler" span when tracing is on. Decided when the route
 * is compiled, as is the request span: with tracing off, a route has no tracing code at all.
 */
function handlerOf(endpoint: Endpoint, traces: SpanRecorder | null): Handler {
  const handler = endpoint.handler as Handler;
  if (traces === null) return handler;
  return (...args: unknown[]) => traces.handler(endpoint.meta, () => handler(...args));
}

/** The Fastify route of a typed endpoint, with its auth step, decoder and serializer built now. */
export function typedRoute(endpoint: Endpoint, ctx: RouteContext): RouteOptions {
  const { meta } = endpoint;
  const traces = recorder;
  const handler = handlerOf(endpoint, traces);
  const paramsOf = compileParamsStep(meta, ctx.trustProxy);
  const wildcard = meta.pathParams.find((p) => p.wildcard)?.name;
  const authenticate = compileAuthStep(meta.auth, ctx.auth);
  const chain = endpoint.chain ?? null;

  const serve = async (req: FastifyRequest, reply: FastifyReply) => {
    // Before the request is validated: a caller without valid credentials learns nothing of what it expects.
    const pending = authenticate(req.raw, req.query as Source);
    const authData = pending === null ? null : await pending;
    let params: Source | undefined;
    if (paramsOf) {
      const path = req.params as Source;
      if (wildcard !== undefined) path[wildcard] = path["*"];
      params = paramsOf(req.raw, {
        path,
        query: req.query as Source,
        headers: req.headers as Source,
        body: req.body === undefined ? {} : req.body, // Fastify skips the parser for an empty body
      });
    }
    const request = new ApiCallRequest(meta, authData, req.raw, null, params);
    if (chain) {
      const parts = await runWithRequest(request, () => chain(request, new MiddlewareRequest(), () => handler(params)));
      applyResponseParts(reply, parts);
      return meta.response ? parts.payload : reply.send();
    }
    const result = await runWithRequest(request, () => handler(params));
    return meta.response ? result : reply.send();
  };
  return {
    method: routeMethods(meta),
    url: toFastifyPath(meta.path),
    ...fallbackConstraints(meta),
    // A GET that fits is served by the fast lane before Fastify (typed-lane.ts); this handler then only runs while closing.
    config: fitsTypedLane(endpoint) ? { [fastLaneKey]: typedLaneInvoker(endpoint, ctx) } : {},
    bodyLimit: meta.bodyLimit === null ? Number.MAX_SAFE_INTEGER : (meta.bodyLimit ?? defaultBodyLimit),
    // fast-json-stringify compiles this at ready: responses are serialized by their declared type.
    schema: meta.response ? { response: { 200: serializerSchema(meta.response) } } : undefined,
    handler: traces === null ? serve : (req, reply) => traces.request(meta, req.raw, reply.raw, () => serve(req, reply)),
  };
}

/** Serves one raw endpoint: Node's request and response, with the router's path parameters. */
export type RawInvoker = (req: IncomingMessage, res: ServerResponse, routeParams: Source) => void;

/**
 * Compiled per raw endpoint at boot. The handler gets the response to write, so failures
 * (thrown, a rejected promise from an async handler, or the auth step) are answered here
 * in Encore's format. A request without auth parameters to an endpoint that does not need
 * them, and that no middleware targets, reaches the handler synchronously, with no promise:
 * a scan of the header names and one small request object (what currentRequest() and
 * getAuthData() read) are all it adds. Middlewares, when some target it, run around it.
 * With tracing on when it is compiled, all of it runs inside the request's root span.
 */
export function rawInvoker(endpoint: Endpoint, ctx: RouteContext): RawInvoker {
  const { meta } = endpoint;
  const traces = recorder;
  const handler = handlerOf(endpoint, traces);
  const expose = ctx.exposeInternalErrors;
  const authenticate = compileAuthStep(meta.auth, ctx.auth);
  const chain = endpoint.chain ?? null;
  const call = (req: IncomingMessage, res: ServerResponse, routeParams: Source, authData: AuthData | null): void => {
    const request = new ApiCallRequest(meta, authData, req, routeParams, undefined);
    // A body arrives later, in events from the connection: they must see this request too.
    if (req.method !== "GET" && req.method !== "HEAD") bindEvents(req, request);
    if (chain) {
      // Response headers and status come from the raw handler's own writes, as in Encore.
      const first = new MiddlewareRequest(undefined, req, res);
      runWithRequest(request, () => chain(request, first, () => handler(req, res))).catch((err: unknown) => failRaw(err, req, res, expose));
      return;
    }
    try {
      const result = runWithRequest(request, () => handler(req, res));
      if (result instanceof Promise) result.catch((err: unknown) => failRaw(err, req, res, expose));
    } catch (err) {
      failRaw(err, req, res, expose);
    }
  };
  const invoke: RawInvoker = (req, res, routeParams) => {
    let pending: Promise<AuthData | null> | null;
    try {
      pending = authenticate(req, null);
    } catch (err) {
      return failRaw(err, req, res, expose);
    }
    if (pending === null) return call(req, res, routeParams, null);
    pending.then(
      (authData) => call(req, res, routeParams, authData),
      (err: unknown) => failRaw(err, req, res, expose),
    );
  };
  const served: RawInvoker = traces === null ? invoke : (req, res, routeParams) => traces.request(meta, req, res, () => invoke(req, res, routeParams));
  // The raw fast lane answers before Fastify, so no route hook labels its responses: this does, with series found now.
  if (meter === null) return served;
  const series = meter.route(meta.service, meta.name, false);
  return (req, res, routeParams) => {
    (res as RawResponse).route = series;
    served(req, res, routeParams);
  };
}

/** Raw endpoints get Node's request and response untouched, body unread. */
export function registerRawRoutes(app: FastifyInstance, endpoints: readonly Endpoint[], invokers: ReadonlyMap<Endpoint, RawInvoker>): void {
  // The hot GET/HEAD routes are served by the raw fast lane before Fastify; here they are only reached while closing.
  registerInRawScope(app, endpoints.map((endpoint) => rawRoute(endpoint, invokers.get(endpoint)!)));
}

/** Routes raw endpoints in a scope whose parser leaves the body unread. */
export function registerInRawScope(app: FastifyInstance, routes: readonly RouteOptions[]): void {
  if (routes.length === 0) return;
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_req, _payload, done) => done(null));
    for (const route of routes) scope.route(route);
  });
}

export function rawRoute(endpoint: Endpoint, invoke: RawInvoker): RouteOptions {
  const methods = routeMethods(endpoint.meta);
  const fetchOnly = methods.every((m) => m === "GET" || m === "HEAD");
  return {
    method: methods,
    url: toFastifyPath(endpoint.meta.path),
    ...fallbackConstraints(endpoint.meta),
    // The raw fast lane serves GET/HEAD-only raw endpoints before Fastify (front-router.ts).
    config: fetchOnly ? { [fastLaneKey]: invoke } : {},
    // HEAD is listed explicitly when wanted; Fastify must not add one on its own.
    exposeHeadRoute: false,
    handler: (req, reply) => {
      reply.hijack();
      invoke(req.raw, reply.raw, req.params as Source);
    },
  };
}

function failRaw(err: unknown, req: IncomingMessage, res: ServerResponse, exposeInternalErrors: boolean): void {
  failRequest(err, req, res, exposeInternalErrors, "raw endpoint failed");
}

/** Answers a request served before Fastify (the fast lanes) in Encore's error format, as Fastify's error handler would. */
export function failRequest(err: unknown, req: IncomingMessage, res: ServerResponse, exposeInternalErrors: boolean, what: string): void {
  if (recorder !== null) recorder.requestFailed(err);
  const { status, body } = toWire(err, exposeInternalErrors);
  logFailure(err, status, req, what);
  noteErrorCode(res, body.code);
  const text = JSON.stringify(body);
  if (!res.headersSent) {
    const retryAfter = retryAfterOf(body);
    res.writeHead(status, {
      "content-type": "application/json; charset=utf-8",
      "content-length": Buffer.byteLength(text),
      ...(retryAfter === undefined ? {} : { "retry-after": retryAfter }),
    });
  }
  res.end(text);
}
