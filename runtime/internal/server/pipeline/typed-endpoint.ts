import type { FastifyReply, FastifyRequest, RouteOptions } from "fastify";
import { MiddlewareRequest } from "../../middleware/middleware.ts";
import type { Endpoint } from "../../registry/endpoints.ts";
import { ApiCallRequest } from "../../reqtrack/api-call.ts";
import { runWithRequest } from "../../reqtrack/mod.ts";
import { recorder } from "../../tracing/mod.ts";
import { compileAuthStep } from "./auth.ts";
import { fallbackConstraints } from "./fallback-routes.ts";
import { compileParamsStep } from "./request.ts";
import { compileResponseCookies } from "./response-cookies.ts";
import { compileResponseStatusStep } from "./response-status.ts";
import { compileResponseHeaders } from "./response-headers.ts";
import { applyResponseParts } from "./response-parts.ts";
import { serializerSchema } from "./response-schema.ts";
import { handlerOf, type RouteContext } from "./route-context.ts";
import { nameWildcard, routeMethods, toFastifyPath } from "./route-paths.ts";

type Source = Record<string, unknown>;

/** Encore's default body limit. */
export const defaultBodyLimit = 2 * 1024 * 1024;

/**
 * Fastify's route of a typed endpoint, with its auth step, decoder and serializer built now.
 * The body is parsed by the server's JSON parser (body.ts) before the handler below runs;
 * what it throws goes to Fastify's error handler (errors.ts errorHandler). A GET that fits
 * the fast lane (typed-fast-lane.ts) is served here only while the server closes.
 */
export function typedRoute(endpoint: Endpoint, ctx: RouteContext): RouteOptions {
  const { meta } = endpoint;
  const traces = recorder;
  const handler = handlerOf(endpoint, traces);
  const paramsOf = compileParamsStep(meta, ctx.trustProxy);
  const wildcard = meta.pathParams.find((p) => p.wildcard)?.name;
  const authenticate = compileAuthStep(meta.auth, ctx.auth);
  const chain = endpoint.chain ?? null;
  const headerFields = meta.response ? compileResponseHeaders(meta.response, meta.responseHeaders) : null;
  const cookieFields = compileResponseCookies(meta.responseCookies);
  const statusField = meta.response ? compileResponseStatusStep(meta.httpStatusField, headerFields?.bodySchema ?? meta.response) : null;

  const serve = async (req: FastifyRequest, reply: FastifyReply) => {
    // Before the request is validated: a caller without valid credentials learns nothing of what it expects.
    const pending = authenticate(req.raw, req.query as Source);
    const authData = pending === null ? null : await pending;
    let params: Source | undefined;
    if (paramsOf) {
      const path = req.params as Source;
      nameWildcard(path, wildcard);
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
      headerFields?.apply(reply, parts.payload);
      cookieFields?.apply(reply, parts.payload);
      statusField?.apply(reply, parts.payload);
      applyResponseParts(reply, parts);
      return meta.response ? parts.payload : reply.send();
    }
    const result = await runWithRequest(request, () => handler(params));
    headerFields?.apply(reply, result);
    cookieFields?.apply(reply, result);
    statusField?.apply(reply, result);
    return meta.response ? result : reply.send();
  };
  return {
    method: routeMethods(meta),
    url: toFastifyPath(meta.path),
    ...fallbackConstraints(meta),
    bodyLimit: meta.bodyLimit === null ? Number.MAX_SAFE_INTEGER : (meta.bodyLimit ?? defaultBodyLimit),
    // fast-json-stringify compiles this at ready: responses are serialized by their declared type.
    schema: meta.response ? { response: { 200: serializerSchema(headerFields?.bodySchema ?? meta.response) } } : undefined,
    handler: traces === null ? serve : (req, reply) => traces.request(meta, req.raw, reply.raw, () => serve(req, reply)),
  };
}
