// Service middlewares over real HTTP and in-process calls: endpoints described by hand
// (as in http-server.test.ts), middlewares declared with the public middleware(), both
// assembled by the registry's own boot step. Calls through ~encore/clients look
// endpoints up in the registry, which here serves this file's endpoints (the runtime
// serves one app per process, so a second app cannot be loaded).
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { APIError, HandlerResponse, middleware, type Middleware } from "../../../encore.dev/api/mod.ts";
import { apiCall } from "../../../encore.dev/internal/codegen/api/mod.ts";
import { getAuthData } from "../../../encore.dev/internal/codegen/auth/mod.ts";
import { currentRequest, type APICallMeta } from "../../../encore.dev/req-meta.ts";
import { config } from "../../config/mod.ts";
import type { AuthHandlerMeta, EndpointMeta, JSONSchema, ServiceMeta } from "../../meta/types.ts";
import { assembleEndpoints, type AuthHandlerEntry } from "../../registry/endpoints.ts";
import { buildHttpServer } from "../http-server.ts";

const registry = vi.hoisted(() => ({ endpoints: new Map<string, unknown>() }));
vi.mock("../../registry/endpoints.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../registry/endpoints.ts")>()),
  loadEndpoints: async () => registry.endpoints,
}));

const any: JSONSchema = {};
const str: JSONSchema = { type: "string" };
const seenSchema: JSONSchema = { type: "object", properties: { seen: any }, required: [] };

// ---- The middlewares, as an app declares them.

/** Before the handler: what it saw of the request; after: a header, so the order shows both ways. */
const tracing = (name: string): Middleware =>
  middleware(async (req, next) => {
    const meta = req.requestMeta as APICallMeta;
    req.data.trail = [...((req.data.trail as string[] | undefined) ?? []), name];
    req.data.sawEndpoint = meta.api.endpoint;
    req.data.sawRawRequest = req.rawRequest !== undefined;
    const resp = await next(req);
    resp.header.add("x-after", name);
    return resp;
  });

let guardRuns = 0;
const ownerOnly = middleware({ target: { auth: true } }, async (req, next) => {
  guardRuns++;
  if (getAuthData<{ userID: string }>()?.userID !== "alice") throw APIError.permissionDenied("only alice may see this");
  const resp = await next(req);
  resp.header.set("x-guarded", "owner-checked");
  return resp;
});

const limiter = middleware({ target: { tags: ["limited", "throttled"] } }, async () => {
  throw APIError.resourceExhausted("rate limit exceeded").withDetails({ retryAfterSeconds: 30 });
});

const created = middleware({ target: { tags: ["created"] } }, async (req, next) => {
  const resp = await next(req);
  resp.status = 201;
  return resp;
});

const cached = middleware({ target: { tags: ["cached"] } }, async () => new HandlerResponse({ seen: "from the cache" }));

const badStatus = middleware({ target: { tags: ["bad-status"] } }, async (req, next) => {
  const resp = await next(req);
  resp.status = 42;
  return resp;
});

const apiKey = middleware({ target: { isRaw: true } }, async (req, next) => {
  if (req.rawRequest?.headers["x-api-key"] !== "k") throw APIError.unauthenticated("missing API key");
  req.rawResponse?.setHeader("x-raw-checked", "yes");
  req.data.key = "checked";
  return next(req);
});

const internalOnly = middleware({ target: { expose: false } }, async (req, next) => {
  req.data.via = "internal middleware";
  return next(req);
});

// ---- The app: service "shop" with middlewares, service "plain" without.

let handlerRuns = 0;
const seen = async () => {
  handlerRuns++;
  return { seen: (currentRequest() as APICallMeta).middlewareData };
};
const seenRaw = (req: IncomingMessage, res: ServerResponse) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ seen: (currentRequest() as APICallMeta).middlewareData, body }));
  });
};

function meta(service: string, name: string, partial: Partial<EndpointMeta>): EndpointMeta {
  return {
    service, name, kind: "typed", file: `${service}/api.ts`, line: 1, doc: null, expose: true, auth: false, methods: ["GET"],
    path: `/${service}/${name}`, pathParams: [], tags: [], sensitive: false, request: null, response: seenSchema, ...partial,
  };
}

const raw = { kind: "raw", request: null, response: null } as const;
const services: ServiceMeta[] = [
  {
    name: "shop",
    dir: "shop",
    serviceFile: "shop/encore.service.ts",
    doc: null,
    endpoints: [
      meta("shop", "trail", {}),
      meta("shop", "mine", { auth: true }),
      meta("shop", "limited", { tags: ["limited"] }),
      meta("shop", "created", { methods: ["POST"], tags: ["created"] }),
      meta("shop", "cached", { tags: ["cached"] }),
      meta("shop", "badStatus", { tags: ["bad-status"] }),
      meta("shop", "rawEcho", raw),
      meta("shop", "rawPost", { ...raw, methods: ["POST"] }),
      meta("shop", "internalEcho", { expose: false }),
    ],
    calls: [],
  },
  { name: "plain", dir: "plain", serviceFile: "plain/encore.service.ts", doc: null, endpoints: [meta("plain", "ping", {})], calls: [] },
];
const handlers: Record<string, unknown> = {
  "shop.trail": seen, "shop.mine": seen, "shop.limited": seen, "shop.created": seen, "shop.cached": seen,
  "shop.badStatus": seen, "shop.rawEcho": seenRaw, "shop.rawPost": seenRaw, "shop.internalEcho": seen, "plain.ping": seen,
};
const declared = [tracing("first"), tracing("second"), ownerOnly, limiter, created, cached, badStatus, apiKey, internalOnly];
const endpoints = assembleEndpoints(services, { handlers, middlewares: { shop: declared, plain: undefined } });
for (const [key, e] of endpoints) registry.endpoints.set(key, e);

// ---- An auth handler: "Bearer <user>" authenticates <user>.

const authMeta: AuthHandlerMeta = {
  service: "shop", name: "auth", exportName: "auth", file: "shop/auth.ts", line: 1,
  params: {
    fields: [{ name: "authorization", location: "header", wireName: "authorization", optional: true }],
    path: null, query: null, body: null,
    headers: { type: "object", properties: { authorization: str }, required: [] },
    full: { type: "object", properties: { authorization: str }, required: [] },
  },
  authData: { type: "object", properties: { userID: str }, required: ["userID"] },
  gateway: { file: "shop/auth.ts", line: 2 },
};
const authEntry: AuthHandlerEntry = {
  meta: authMeta,
  handler: async ({ authorization }) => ({ userID: String(authorization).replace("Bearer ", "") }),
};

let server: Awaited<ReturnType<typeof buildHttpServer>>;
let base = "";
beforeAll(async () => {
  const cfg = { appRoot: process.cwd(), exposeInternalErrors: false, pubsubAdminToken: null, objects: config().objects, trustProxy: false };
  server = await buildHttpServer(endpoints.values(), cfg, { auth: authEntry });
  await server.listen({ host: "127.0.0.1", port: 0 });
  base = `http://127.0.0.1:${(server.server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await server.close();
});

async function request(path: string, init: RequestInit = {}) {
  const res = await fetch(base + path, init);
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

describe("service middlewares over HTTP", () => {
  test("run in the order the service lists them, and req.data reaches the handler as middlewareData", async () => {
    const res = await request("/shop/trail");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ seen: { trail: ["first", "second"], sawEndpoint: "trail", sawRawRequest: false } });
    // After next(): the inner middleware adds its header first.
    expect(res.headers.get("x-after")).toBe("second, first");
  });

  test("a middleware that throws an APIError answers in Encore's format with its status, and the handler never runs", async () => {
    const before = handlerRuns;
    const res = await request("/shop/limited");
    expect([res.status, res.body]).toEqual([429, { code: "resource_exhausted", message: "rate limit exceeded", details: { retryAfterSeconds: 30 } }]);
    expect(handlerRuns).toBe(before);
  });

  test("a middleware targeting auth: true endpoints runs after the auth handler, for those endpoints only", async () => {
    const before = guardRuns;
    const alice = await request("/shop/mine", { headers: { authorization: "Bearer alice" } });
    expect([alice.status, alice.headers.get("x-guarded")]).toEqual([200, "owner-checked"]);
    const bob = await request("/shop/mine", { headers: { authorization: "Bearer bob" } });
    expect([bob.status, bob.body]).toEqual([403, { code: "permission_denied", message: "only alice may see this", details: null }]);
    const anonymous = await request("/shop/mine");
    expect(anonymous.status).toBe(401);
    const open = await request("/shop/trail", { headers: { authorization: "Bearer bob" } });
    expect([open.status, open.headers.get("x-guarded")]).toEqual([200, null]);
    expect(guardRuns - before).toBe(2);
  });

  test("a middleware may set the status of a successful typed response", async () => {
    const res = await request("/shop/created", { method: "POST" });
    expect([res.status, res.body]).toEqual([201, { seen: { trail: ["first", "second"], sawEndpoint: "created", sawRawRequest: false } }]);
  });

  test("a middleware may answer with its own HandlerResponse without calling next", async () => {
    const before = handlerRuns;
    const res = await request("/shop/cached");
    expect([res.status, res.body]).toEqual([200, { seen: "from the cache" }]);
    expect(res.headers.get("x-after")).toBe("second, first");
    expect(handlerRuns).toBe(before);
  });

  test("an invalid status from a middleware is an internal error, not a crash", async () => {
    const res = await request("/shop/badStatus");
    expect([res.status, res.body]).toEqual([500, { code: "internal", message: "an internal error occurred", details: null }]);
  });

  test("an endpoint of a service without middlewares, or that none targets, gets no chain at all", () => {
    expect(endpoints.get("plain.ping")?.chain).toBeNull();
    const untargeted = assembleEndpoints(services, { handlers, middlewares: { shop: [limiter, apiKey], plain: undefined } });
    expect(untargeted.get("shop.trail")?.chain).toBeNull();
    expect(untargeted.get("shop.limited")?.chain).not.toBeNull();
  });
});

describe("service middlewares on raw endpoints", () => {
  test.each([
    ["GET (served before Fastify)", "/shop/rawEcho", {}],
    ["POST", "/shop/rawPost", { method: "POST", body: "hello" }],
  ])("%s: a middleware sees the raw request and response, and may reject in Encore's format", async (_label, path, init: RequestInit) => {
    const rejected = await request(path, init);
    expect([rejected.status, rejected.body]).toEqual([401, { code: "unauthenticated", message: "missing API key", details: null }]);
    const ok = await request(path, { ...init, headers: { "x-api-key": "k" } });
    expect([ok.status, ok.headers.get("x-raw-checked")]).toEqual([200, "yes"]);
    expect(ok.body).toMatchObject({ seen: { trail: ["first", "second"], sawRawRequest: true, key: "checked" } });
    if (init.body) expect(ok.body["body"]).toBe("hello");
  });
});

describe("service middlewares on calls between services", () => {
  test("wrap the call as they wrap a request over HTTP, targets included", async () => {
    expect(await apiCall("shop", "internalEcho", undefined)).toEqual({
      seen: { trail: ["first", "second"], sawEndpoint: "internalEcho", sawRawRequest: false, via: "internal middleware" },
    });
  });

  test("a rejecting middleware rejects the call with its APIError", async () => {
    await expect(apiCall("shop", "limited", undefined)).rejects.toMatchObject({ code: "resource_exhausted", message: "rate limit exceeded" });
  });
});
