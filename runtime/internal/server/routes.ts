import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods, RouteOptions } from "fastify";
import type { IncomingMessage, ServerResponse } from "node:http";
import { APIError } from "../errors/api-error.ts";
import type { EndpointMeta, JSONSchema } from "../meta/types.ts";
import type { Endpoint, Handler } from "../registry/endpoints.ts";
import { rootLogger } from "../log/root.ts";
import { toWire } from "./errors.ts";
import { compileRequestDecoder, type RawParts } from "./request.ts";

/** Encore's default body limit. */
export const defaultBodyLimit = 2 * 1024 * 1024;

const anyMethod: HTTPMethods[] = ["DELETE", "GET", "HEAD", "PATCH", "POST", "PUT", "OPTIONS"];

/** Encore path syntax to Fastify's: "/files/*path" becomes "/files/*". */
export function toFastifyPath(path: string): string {
  return path.replace(/\/\*[A-Za-z0-9_]+$/, "/*");
}

/** The folder prefix of a static endpoint's path: "/assets/*path" becomes "/assets/". */
export function staticPrefix(path: string): string {
  return path.replace(/\*[A-Za-z0-9_]*$/, "");
}

export function routeMethods(meta: EndpointMeta): HTTPMethods[] {
  return meta.methods.includes("*") ? anyMethod : (meta.methods as HTTPMethods[]);
}

/** The Fastify route of a typed endpoint, with its decoder and serializer built now. */
export function typedRoute(endpoint: Endpoint): RouteOptions {
  const { meta } = endpoint;
  const handler = endpoint.handler as Handler;
  const decode = meta.request ? compileRequestDecoder(meta.request) : null;
  const wildcard = meta.pathParams.find((p) => p.wildcard)?.name;

  return {
    method: routeMethods(meta),
    url: toFastifyPath(meta.path),
    bodyLimit: meta.bodyLimit === null ? Number.MAX_SAFE_INTEGER : (meta.bodyLimit ?? defaultBodyLimit),
    // fast-json-stringify compiles this at ready: responses are serialized by their declared type.
    schema: meta.response ? { response: { 200: stripAnnotations(meta.response) } } : undefined,
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      // No auth handler is supported yet, so no caller can be authenticated.
      if (meta.auth) throw APIError.unauthenticated("endpoint requires auth but none provided");
      let params: unknown;
      if (decode) {
        const path = req.params as Record<string, unknown>;
        if (wildcard !== undefined) path[wildcard] = path["*"];
        const raw: RawParts = {
          path,
          query: req.query as Record<string, unknown>,
          headers: req.headers as Record<string, unknown>,
          body: req.body === undefined ? {} : req.body, // Fastify skips the parser for an empty body
        };
        params = decode(raw);
      }
      const result = await handler(params);
      return meta.response ? result : reply.send();
    },
  };
}

/** Raw endpoints get Node's request and response untouched, body unread. */
export function registerRawRoutes(
  app: FastifyInstance,
  endpoints: readonly Endpoint[],
  exposeInternalErrors: boolean,
): void {
  if (endpoints.length === 0) return;
  // A scope whose parser leaves the body unread. The hot GET/HEAD routes are served
  // by the raw fast lane before Fastify; here they are only reached while closing.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (_req, _payload, done) => done(null));
    for (const endpoint of endpoints) scope.route(rawRoute(endpoint, exposeInternalErrors));
  });
}

function rawRoute(endpoint: Endpoint, exposeInternalErrors: boolean): RouteOptions {
  return {
    method: routeMethods(endpoint.meta),
    url: toFastifyPath(endpoint.meta.path),
    // HEAD is listed explicitly when wanted; Fastify must not add one on its own.
    exposeHeadRoute: false,
    handler: (req, reply) => {
      reply.hijack();
      invokeRaw(endpoint, req.raw, reply.raw, exposeInternalErrors);
    },
  };
}

/**
 * Calls a raw handler. The response is the handler's, so failures (thrown, or a
 * rejected promise from an async handler) are answered here in Encore's format.
 */
export function invokeRaw(
  { handler }: Endpoint,
  req: IncomingMessage,
  res: ServerResponse,
  exposeInternalErrors: boolean,
): void {
  const fail = (err: unknown) => {
    const { status, body } = toWire(err, exposeInternalErrors);
    if (status >= 500) rootLogger().error({ err, method: req.method, url: req.url }, "raw endpoint failed");
    if (!res.headersSent) res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify(body));
  };
  try {
    const result = (handler as Handler)(req, res);
    if (result instanceof Promise) result.catch(fail);
  } catch (err) {
    fail(err);
  }
}

// Annotations for the request side (x-encore-type) mean nothing to the serializer.
function stripAnnotations(schema: JSONSchema): JSONSchema {
  return JSON.parse(JSON.stringify(schema), (key, value) => (key.startsWith("x-encore-") ? undefined : value));
}
