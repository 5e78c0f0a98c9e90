import type { FastifyInstance } from "fastify";
import { isUtf8 } from "node:buffer";
import { APIError } from "../errors/api-error.ts";
import type { AppMeta, EndpointMeta } from "../meta/types.ts";
import { devAuthDataHeader, devCallHeader, encodeAuthData, type DevCalls } from "../server/runtime-routes/dev-calls.ts";
import type { CallRequest, CallResult, ExplorerAuth } from "./api.ts";
import { traceIdHeader } from "../tracing/attributes.ts";


/** How long the explorer waits for the app's answer. */
const callTimeoutMs = 60_000;

/**
 * POST /api/call: the API explorer's request, sent over HTTP to the app's own port on
 * loopback, so it goes through everything a client's request goes through (routing,
 * validation, the auth handler, middlewares, raw endpoints) and the answer is the real
 * one: status, headers, body, timing. Internal endpoints are reached with this boot's
 * secret, and only they take auth data in place of the auth handler (server/runtime-routes/dev-calls.ts).
 */
export function registerExplorer(app: FastifyInstance, meta: AppMeta, appUrl: string, devCalls: DevCalls): void {
  // Room for an endpoint's whole body (the app's own limit is 2 MiB by default), as JSON text.
  app.post("/api/call", { bodyLimit: 16 * 1024 * 1024 }, async (req): Promise<CallResult> => {
    const call = callRequest(req.body);
    const endpoint = meta.services.find((s) => s.name === call.service)?.endpoints.find((e) => e.name === call.endpoint);
    if (!endpoint) throw APIError.notFound(`no endpoint ${call.service}.${call.endpoint}`);
    const headers = new Headers();
    try {
      for (const [name, value] of Object.entries(call.headers)) headers.append(name, value);
    } catch (err) {
      throw APIError.invalidArgument(`a header cannot be sent: ${(err as Error).message}`);
    }
    for (const [name, value] of authHeaders(call.auth, endpoint, devCalls)) headers.set(name, value);
    if (call.body !== null && !headers.has("content-type")) headers.set("content-type", "application/json");
    const query = new URLSearchParams(call.query.map(([k, v]): [string, string] => [k, v])).toString();
    const url = `${appUrl}${call.path}${query ? `${call.path.includes("?") ? "&" : "?"}${query}` : ""}`;
    const started = performance.now();
    let res: Response;
    let body: Buffer;
    try {
      res = await fetch(url, {
        method: call.method,
        headers,
        body: call.body,
        redirect: "manual",
        signal: AbortSignal.timeout(callTimeoutMs),
      });
      body = Buffer.from(await res.arrayBuffer());
    } catch (err) {
      if (err instanceof TypeError && !(err.cause instanceof Error)) throw APIError.invalidArgument(`the request cannot be sent: ${err.message}`);
      const reason = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
      throw APIError.unavailable(`the app did not answer: ${reason}`);
    }
    const durationMs = performance.now() - started;
    const text = isUtf8(body);
    return {
      status: res.status,
      headers: headerRecord(res.headers),
      body: body.toString(text ? "utf8" : "base64"),
      bodyEncoding: text ? "utf8" : "base64",
      durationMs: Math.round(durationMs * 100) / 100,
      traceId: res.headers.get(traceIdHeader),
    };
  });
}

/** Response headers by name; a header sent several times (set-cookie) has its values joined, one per line. */
function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of headers) record[name] = name in record ? `${record[name]}\n${value}` : value;
  return record;
}

function authHeaders(auth: ExplorerAuth, endpoint: EndpointMeta, devCalls: DevCalls): [string, string][] {
  const headers: [string, string][] = endpoint.expose ? [] : [[devCallHeader, devCalls.token]];
  switch (auth.kind) {
    case "none":
      return headers;
    case "bearer":
      return [...headers, ["authorization", `Bearer ${auth.token}`]];
    case "authData":
      if (endpoint.expose) {
        throw APIError.invalidArgument("auth data can be given to internal endpoints only; an exposed endpoint is called as a client calls it: use a bearer token");
      }
      return [...headers, [devAuthDataHeader, encodeAuthData(auth.data)]];
  }
}

/** The body checked against CallRequest. */
function callRequest(body: unknown): CallRequest {
  const fail = (what: string): never => {
    throw APIError.invalidArgument(`expected a CallRequest: ${what}`);
  };
  if (!isObject(body)) return fail("the body is not an object");
  const { service, endpoint, method, path, query, headers, auth } = body;
  const payload = body["body"];
  if (typeof service !== "string" || typeof endpoint !== "string") return fail("service and endpoint must be strings");
  if (typeof method !== "string" || !/^[A-Za-z]+$/.test(method)) return fail("method must be an HTTP method");
  if (typeof path !== "string" || !path.startsWith("/") || path.startsWith("//")) return fail('path must start with "/"');
  if (!Array.isArray(query) || !query.every((p) => Array.isArray(p) && p.length === 2 && p.every((s) => typeof s === "string"))) {
    return fail("query must be a list of [name, value] pairs of strings");
  }
  if (!isObject(headers) || !Object.values(headers).every((v) => typeof v === "string")) return fail("headers must map names to strings");
  if (payload !== null && typeof payload !== "string") return fail("body must be JSON text or null");
  return {
    service,
    endpoint,
    method: method.toUpperCase(),
    path,
    query: query as [string, string][],
    headers: headers as Record<string, string>,
    body: payload,
    auth: explorerAuth(auth, fail),
  };
}

function explorerAuth(auth: unknown, fail: (what: string) => never): ExplorerAuth {
  if (!isObject(auth)) return fail("auth must be an object with a kind");
  switch (auth["kind"]) {
    case "none":
      return { kind: "none" };
    case "bearer":
      return typeof auth["token"] === "string" ? { kind: "bearer", token: auth["token"] } : fail("a bearer auth needs its token");
    case "authData":
      return isObject(auth["data"]) ? { kind: "authData", data: auth["data"] } : fail("authData needs data, an object");
    default:
      return fail('auth.kind must be "none", "bearer" or "authData"');
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
