import fastJson from "fast-json-stringify";
import { parse as parseQuery } from "fast-querystring";
import type { IncomingMessage, ServerResponse } from "node:http";
import { meter } from "../../metrics/mod.ts";
import { ApiCallRequest } from "../../reqtrack/api-call.ts";
import { runWithRequest, type AuthData } from "../../reqtrack/mod.ts";
import type { Endpoint, Handler } from "../../registry/endpoints.ts";
import { recorder } from "../../tracing/mod.ts";
import { compileAuthStep } from "./auth.ts";
import { failRequest } from "./errors.ts";
import { isFallbackEndpoint } from "./fallback-routes.ts";
import { compileParamsStep } from "./request.ts";
import { serializerSchema } from "./response-schema.ts";
import type { NodeInvoker, RouteContext } from "./route-context.ts";

type Source = Record<string, unknown>;

const noQuery: Source = Object.freeze({}) as Source;
const noBody: Source = Object.freeze({}) as Source;

/**
 * Whether a typed endpoint can be served by the fast lane (front-router.ts) rather than
 * by Fastify: GET-only (a GET has no body to parse), with a response to serialize, and
 * none of what the Fastify route adds around the handler (middlewares, tracing spans,
 * a fallback's or a wildcard's routing). Such an endpoint, a read like GET /:code/stats,
 * answers the same either way; here it skips Fastify's request, reply and hooks.
 */
export function fitsTypedFastLane(endpoint: Endpoint): boolean {
  const { meta } = endpoint;
  return (
    recorder === null &&
    !endpoint.chain &&
    meta.response !== null &&
    !meta.responseHeaders && // the fast lane writes the body only
    !meta.responseCookies &&
    meta.httpStatusField === undefined && // and status 200 only
    meta.methods.length === 1 &&
    meta.methods[0] === "GET" &&
    !isFallbackEndpoint(meta) &&
    !meta.pathParams.some((p) => p.wildcard)
  );
}

/**
 * Compiled per fitting endpoint at boot: the same steps, in the same order, as the
 * endpoint's Fastify route (typed-endpoint.ts typedRoute), on Node's request and response.
 * The query is parsed by the parser Fastify's router uses (fast-querystring), and the
 * response serialized by fast-json-stringify from the same schema Fastify compiles,
 * so a request gets the same answer, byte for byte, from either lane. HEAD, which
 * Fastify answers for every GET route, gets the GET's headers and no body.
 */
export function typedFastLane(endpoint: Endpoint, ctx: RouteContext): NodeInvoker {
  const { meta } = endpoint;
  const handler = endpoint.handler as Handler;
  const paramsOf = compileParamsStep(meta, ctx.trustProxy);
  const authenticate = compileAuthStep(meta.auth, ctx.auth);
  const serialize = fastJson(serializerSchema(meta.response!)) as (value: unknown) => string;
  const expose = ctx.exposeInternalErrors;
  const series = meter === null ? null : meter.route(meta.service, meta.name, true);

  const fail = (err: unknown, req: IncomingMessage, res: ServerResponse) => failRequest(err, req, res, expose, "request failed", ctx.errorExtras);
  const answer = (res: ServerResponse, withBody: boolean, result: unknown): void => {
    const body = serialize(result);
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
    res.end(withBody ? body : undefined);
  };
  const call = (req: IncomingMessage, res: ServerResponse, routeParams: Source, query: Source, authData: AuthData | null): void => {
    let params: Source | undefined;
    let result: unknown;
    try {
      if (paramsOf) params = paramsOf(req, { path: routeParams, query, headers: req.headers as Source, body: noBody });
      const request = new ApiCallRequest(meta, authData, req, null, params);
      result = runWithRequest(request, () => handler(params));
    } catch (err) {
      return fail(err, req, res);
    }
    const withBody = req.method !== "HEAD";
    if (!(result instanceof Promise)) return answerOrFail(() => answer(res, withBody, result), req, res, fail);
    result.then(
      (value: unknown) => answerOrFail(() => answer(res, withBody, value), req, res, fail),
      (err: unknown) => fail(err, req, res),
    );
  };
  const invoke: NodeInvoker = (req, res, routeParams) => {
    if (series !== null) (res as { route?: unknown }).route = series;
    const url = req.url ?? "/";
    const mark = url.indexOf("?");
    const query = mark === -1 || mark === url.length - 1 ? noQuery : (parseQuery(url.slice(mark + 1)) as Source);
    let pending: Promise<AuthData | null> | null;
    try {
      // Before the request is validated: a caller without valid credentials learns nothing of what it expects.
      pending = authenticate(req, query);
    } catch (err) {
      return fail(err, req, res);
    }
    if (pending === null) return call(req, res, routeParams, query, null);
    pending.then(
      (authData) => call(req, res, routeParams, query, authData),
      (err: unknown) => fail(err, req, res),
    );
  };
  return invoke;
}

/** A value the declared type cannot serialize is the handler's fault: 500, as on Fastify's lane. */
function answerOrFail(send: () => void, req: IncomingMessage, res: ServerResponse, fail: (err: unknown, req: IncomingMessage, res: ServerResponse) => void): void {
  try {
    send();
  } catch (err) {
    fail(err, req, res);
  }
}
