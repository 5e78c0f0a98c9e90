// The auth step over real HTTP: a real server with endpoints described by hand (as in
// http-server.test.ts) and a real auth handler function. Calls through ~encore/clients look
// endpoints up in the registry, which here serves this file's endpoints instead of the
// app's: the runtime serves one app per process, so a second app cannot be loaded.
import type { IncomingMessage, ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { currentRequest } from "../../../encore.dev/req-meta.ts";
import { apiCall } from "../../../encore.dev/internal/codegen/api/mod.ts";
import { getAuthData } from "../../../encore.dev/internal/codegen/auth/mod.ts";
import { callEndpoint } from "../../calls/api-call.ts";
import { config } from "../../config/mod.ts";
import { APIError } from "../../errors/api-error.ts";
import { rootLogger } from "../../log/root.ts";
import type { AuthHandlerMeta, EndpointMeta, JSONSchema, RequestMeta } from "../../meta/types.ts";
import type { AuthHandlerEntry, Endpoint } from "../../registry/endpoints.ts";
import { ApiCallRequest } from "../../reqtrack/api-call.ts";
import { pubsubDelivery, runWithRequest } from "../../reqtrack/mod.ts";
import { obj, testEndpoint } from "../../../test/endpoints.ts";
import { buildHttpServer } from "../http-server.ts";

const registry = vi.hoisted(() => ({ endpoints: new Map<string, unknown>(), auth: null as unknown }));
vi.mock("../../registry/endpoints.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../registry/endpoints.ts")>()),
  loadEndpoints: async () => registry.endpoints,
  loadAuthHandler: async () => registry.auth,
}));

const str: JSONSchema = { type: "string" };
const num: JSONSchema = { type: "number" };
const any: JSONSchema = {};

// ---- The auth handler: a credential per outcome.

const alice = { userID: "alice", email: "alice@example.com" };
const bob = { userID: "bob", email: "bob@example.com" };
let handlerRuns = 0;
let seenByHandler: unknown[] = [];

async function authenticate(params: { authorization?: string; token?: string; version?: number }): Promise<unknown> {
  handlerRuns++;
  seenByHandler = [getAuthData(), currentRequest()];
  const credential = params.authorization ?? (params.token === undefined ? undefined : `Bearer ${params.token}`);
  switch (credential) {
    case "Bearer alice":
      return alice;
    case "Bearer nobody":
      return null;
    case "Bearer limited":
      throw APIError.resourceExhausted("too many attempts");
    case "Bearer crash":
      throw new Error("token store password=hunter2");
    case "Bearer shapeless":
      return { email: "no-id@example.com" };
    default:
      throw APIError.unauthenticated("invalid token");
  }
}

const authMeta: AuthHandlerMeta = {
  service: "gate",
  name: "auth",
  exportName: "auth",
  file: "gate/auth.ts",
  line: 1,
  params: {
    fields: [
      { name: "authorization", location: "header", wireName: "authorization", optional: true },
      { name: "token", location: "query", wireName: "access_token", optional: true },
      { name: "version", location: "header", wireName: "x-auth-version", optional: true },
    ],
    path: null,
    query: obj({ access_token: str }),
    headers: obj({ authorization: str, "x-auth-version": num }),
    body: null,
    full: obj({ authorization: str, token: str, version: num }),
  },
  authData: obj({ userID: str, email: str }, ["userID", "email"]),
  gateway: { file: "gate/auth.ts", line: 2 },
};
const authEntry: AuthHandlerEntry = { meta: authMeta, handler: authenticate as AuthHandlerEntry["handler"] };

// ---- Endpoints: each answers what it sees.

const endpoint = (name: string, partial: Partial<EndpointMeta>, handler: unknown): Endpoint =>
  testEndpoint(name, { response: obj({ auth: any, meta: any }), ...partial }, handler);

const seen = async () => ({ auth: getAuthData(), meta: currentRequest() });
const seenRaw = (req: IncomingMessage, res: ServerResponse) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ auth: getAuthData(), meta: currentRequest(), body }));
  });
};
const itemRequest: RequestMeta = {
  fields: [
    { name: "id", location: "path", wireName: "id", optional: false },
    { name: "limit", location: "query", wireName: "limit", optional: true },
    { name: "trace", location: "header", wireName: "x-trace", optional: true },
  ],
  path: obj({ id: num }, ["id"]),
  query: obj({ limit: num }),
  headers: obj({ "x-trace": str }),
  body: null,
  full: obj({ id: num, limit: num, trace: str }, ["id"]),
};
const forwardedRequest: RequestMeta = {
  fields: [{ name: "forwardedFor", location: "header", wireName: "x-forwarded-for", optional: false }],
  path: null, query: null, headers: obj({ "x-forwarded-for": str }, ["x-forwarded-for"]), body: null,
  full: obj({ forwardedFor: str }, ["forwardedFor"]),
};

const endpoints: Endpoint[] = [
  endpoint("whoami", {}, seen),
  endpoint("secret", { auth: true }, seen),
  endpoint("item", { auth: true, path: "/items/:id", pathParams: [{ name: "id", wildcard: false }], request: itemRequest, tags: ["t1"] }, seen),
  endpoint("internalSecret", { expose: false, auth: true, path: "/internal/secret" }, seen),
  endpoint("internalOpen", { expose: false, path: "/internal/open" }, seen),
  endpoint("relay", { path: "/relay", response: any }, async () => apiCall("svc", "internalSecret", undefined)),
  endpoint("forwarded", { request: forwardedRequest, response: obj({ forwardedFor: str }) }, async (p: { forwardedFor: string }) => p),
  endpoint("rawWho", { kind: "raw", path: "/raw/who", request: null, response: null }, seenRaw),
  endpoint("rawSecret", { kind: "raw", auth: true, path: "/raw/secret/:key", pathParams: [{ name: "key", wildcard: false }], request: null, response: null }, seenRaw),
  endpoint("rawPost", { kind: "raw", auth: true, methods: ["POST"], path: "/raw/post", request: null, response: null }, seenRaw),
  endpoint(
    "files",
    {
      kind: "static", auth: true, path: "/files/*path", pathParams: [{ name: "path", wildcard: true }], request: null, response: null,
      static: { dir: "runtime/internal/parser/testdata/locations/loc/public" },
    },
    {},
  ),
];
for (const e of endpoints) registry.endpoints.set(`${e.meta.service}.${e.meta.name}`, e);
registry.auth = authEntry;

async function serve(auth: AuthHandlerEntry | null, trustProxy = false) {
  const cfg = { appRoot: process.cwd(), exposeInternalErrors: false, pubsubAdminToken: null, objects: config().objects, trustProxy };
  const server = await buildHttpServer(endpoints, cfg, { auth });
  await server.listen({ host: "127.0.0.1", port: 0 });
  const address = server.server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  const request = async (path: string, headers: Record<string, string> = {}, init: RequestInit = {}) => {
    const res = await fetch(url + path, { headers, ...init });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { http: server, request };
}

let server: Awaited<ReturnType<typeof serve>>;
let proxied: Awaited<ReturnType<typeof serve>>;
let bare: Awaited<ReturnType<typeof serve>>;
beforeAll(async () => {
  [server, proxied, bare] = await Promise.all([serve(authEntry), serve(authEntry, true), serve(null)]);
});
afterAll(async () => {
  await Promise.all([server, proxied, bare].map((s) => s.http.close()));
});

const as = (credential: string) => ({ authorization: `Bearer ${credential}` });
const noCredentials = { code: "unauthenticated", message: "endpoint requires auth but none provided", details: null };

describe("with an auth handler", () => {
  test("a request without any of its parameters never runs it, and is anonymous", async () => {
    const before = handlerRuns;
    expect((await server.request("/whoami")).body.auth).toBeNull();
    expect((await server.request("/raw/who")).body.auth).toBeNull();
    expect(handlerRuns).toBe(before);
  });

  test.each(["/secret", "/items/1", "/raw/secret/k"])("auth: true without credentials (%s) is 401, and the handler never runs", async (path) => {
    const before = handlerRuns;
    expect(await server.request(path)).toEqual({ status: 401, body: noCredentials });
    expect(handlerRuns).toBe(before);
  });

  test("a raw auth: true endpoint outside the fast lane (POST) is guarded too", async () => {
    expect(await server.request("/raw/post", {}, { method: "POST", body: "x" })).toEqual({ status: 401, body: noCredentials });
    const ok = await server.request("/raw/post", as("alice"), { method: "POST", body: "hello" });
    expect(ok.body).toMatchObject({ auth: alice, body: "hello" });
  });

  test("a static auth: true endpoint serves its files only to an authenticated caller", async () => {
    const url = "/files/index.html";
    expect(await server.request(url)).toEqual({ status: 401, body: noCredentials });
    expect(await server.request(url, as("forged"))).toMatchObject({ status: 401, body: { message: "invalid token" } });
    const res = await fetch(`http://127.0.0.1:${(server.http.server.address() as { port: number }).port}${url}`, { headers: as("alice") });
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
  });

  test.each([
    ["a header", "/secret", as("alice")],
    ["a query parameter", "/secret?access_token=alice", {}],
    ["an encoded query parameter", "/secret?access%5Ftoken=alice", {}],
    ["a raw endpoint", "/raw/secret/k", as("alice")],
    ["an auth: false endpoint", "/whoami", as("alice")],
    ["an auth: false raw endpoint", "/raw/who?access_token=alice", {}],
  ])("its auth data reach the endpoint, given in %s", async (_how, path, headers) => {
    const { status, body } = await server.request(path, headers);
    expect(status).toBe(200);
    expect(body.auth).toEqual(alice);
  });

  test("unauthenticated from the handler: an auth: false endpoint serves the caller anonymously", async () => {
    expect(await server.request("/whoami", as("forged"))).toMatchObject({ status: 200, body: { auth: null } });
    expect(await server.request("/raw/who", as("forged"))).toMatchObject({ status: 200, body: { auth: null } });
  });

  test("unauthenticated from the handler: an auth: true endpoint answers 401 with the handler's error", async () => {
    const refused = { status: 401, body: { code: "unauthenticated", message: "invalid token", details: null } };
    expect(await server.request("/secret", as("forged"))).toEqual(refused);
    expect(await server.request("/raw/secret/k", as("forged"))).toEqual(refused);
  });

  test("null from the handler is anonymous: served where auth is optional, 401 where it is required", async () => {
    expect(await server.request("/whoami", as("nobody"))).toMatchObject({ status: 200, body: { auth: null } });
    expect(await server.request("/secret", as("nobody"))).toEqual({ status: 401, body: { code: "unauthenticated", message: "unauthenticated", details: null } });
  });

  test("any other APIError aborts the request with its code and status, even where auth is optional", async () => {
    const limited = { status: 429, body: { code: "resource_exhausted", message: "too many attempts", details: null } };
    expect(await server.request("/whoami", as("limited"))).toEqual(limited);
    expect(await server.request("/raw/who", as("limited"))).toEqual(limited);
  });

  test("a handler that crashes is 500 internal, with nothing of the error leaked, and logged", async () => {
    const logged = vi.spyOn(rootLogger(), "error");
    try {
      const internal = { status: 500, body: { code: "internal", message: "an internal error occurred", details: null } };
      expect(await server.request("/whoami", as("crash"))).toEqual(internal);
      expect(await server.request("/raw/who", as("crash"))).toEqual(internal);
      expect(logged).toHaveBeenCalledTimes(2);
    } finally {
      logged.mockRestore();
    }
  });

  test("auth data that do not match AuthData (no userID) are 500 internal, and logged with the reason", async () => {
    const logged = vi.spyOn(rootLogger(), "error");
    try {
      expect(await server.request("/whoami", as("shapeless"))).toMatchObject({ status: 500, body: { code: "internal" } });
      const err = (logged.mock.calls[0]?.[0] as { err: Error }).err;
      expect(err.message).toBe('auth handler gate.auth returned auth data that does not match its AuthData type: field "userID" is required');
    } finally {
      logged.mockRestore();
    }
  });

  test("its parameters are validated: a malformed one is 400 naming it", async () => {
    const { status, body } = await server.request("/whoami", { "x-auth-version": "two" });
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: "invalid_argument", message: "invalid number value: two" });
  });

  test("the handler itself runs with no auth data and no currentRequest(), as in encore.dev", async () => {
    await server.request("/whoami", as("alice"));
    expect(seenByHandler).toEqual([null, undefined]);
  });

  test("currentRequest() describes a typed API call", async () => {
    const { body } = await server.request("/items/42?limit=5", { ...as("alice"), "x-trace": "t-1" });
    expect(body.meta).toMatchObject({
      type: "api-call",
      api: { service: "svc", endpoint: "item", raw: false, auth: true, tags: ["t1"] },
      method: "GET",
      path: "/items/42",
      pathAndQuery: "/items/42?limit=5",
      pathParams: { id: 42 },
      headers: { "x-trace": "t-1", authorization: "Bearer alice" },
      parsedPayload: { id: 42, limit: 5, trace: "t-1" },
    });
  });

  test("currentRequest() describes a raw API call, from the fast lane too", async () => {
    const { body } = await server.request("/raw/secret/k%20y?x=1", as("alice"));
    expect(body.meta).toMatchObject({
      type: "api-call",
      api: { service: "svc", endpoint: "rawSecret", raw: true, auth: true, tags: [] },
      method: "GET",
      path: "/raw/secret/k%20y",
      pathAndQuery: "/raw/secret/k%20y?x=1",
      pathParams: { key: "k y" },
    });
    expect(body.meta).not.toHaveProperty("parsedPayload");
  });
});

describe("calls through ~encore/clients", () => {
  test("carry the caller's auth data to the endpoint called, as an API call of its own", async () => {
    const { status, body } = await server.request("/relay", as("alice"));
    expect(status).toBe(200);
    expect(body).toMatchObject({ auth: alice, meta: { type: "api-call", api: { endpoint: "internalSecret" }, path: "/internal/secret" } });
  });

  test("to an auth: true endpoint without auth data fail unauthenticated, as over HTTP", async () => {
    expect(await server.request("/relay")).toEqual({ status: 401, body: noCredentials });
    await expect(apiCall("svc", "internalSecret", undefined)).rejects.toMatchObject({ code: "unauthenticated", message: noCredentials.message });
  });

  test("CallOpts.authData calls as the given user, checked against AuthData", async () => {
    expect(await apiCall("svc", "internalSecret", undefined, { authData: bob } as never)).toMatchObject({ auth: bob });
    await expect(apiCall("svc", "internalOpen", undefined, { authData: { email: "x" } } as never)).rejects.toMatchObject({
      code: "invalid_argument",
      message: 'CallOpts.authData does not match the AuthData of auth handler auth: field "userID" is required',
    });
  });

  test("cron runs (authData: null) and pub/sub deliveries carry no auth data, whoever started them", async () => {
    const authed = new ApiCallRequest(endpoints[0]!.meta, alice, null, null, undefined);
    await runWithRequest(authed, async () => {
      expect(getAuthData()).toEqual(alice);
      expect(await callEndpoint("svc", "internalOpen", undefined, { authData: null })).toMatchObject({ auth: null });
      await expect(callEndpoint("svc", "internalSecret", undefined, { authData: null })).rejects.toMatchObject({ code: "unauthenticated" });
      const delivery = pubsubDelivery({ type: "pubsub-message", service: "svc", topic: "t", subscription: "s", messageId: "m1", deliveryAttempt: 1 });
      expect(runWithRequest(delivery, () => [getAuthData(), currentRequest()?.type])).toEqual([null, "pubsub-message"]);
    });
  });

  test("getAuthData() is null, and currentRequest() undefined, outside any request", () => {
    expect(getAuthData()).toBeNull();
    expect(currentRequest()).toBeUndefined();
  });
});

describe("X-Forwarded-For, for endpoints that declare it", () => {
  test("without a trusted proxy, whatever the client sent is replaced by the peer address", async () => {
    expect((await server.request("/forwarded", { "x-forwarded-for": "203.0.113.7" })).body).toEqual({ forwardedFor: "127.0.0.1" });
    expect((await server.request("/forwarded")).body).toEqual({ forwardedFor: "127.0.0.1" });
  });

  test("with TRUST_PROXY=on, the last entry (the one the load balancer appended) is kept", async () => {
    const res = await proxied.request("/forwarded", { "x-forwarded-for": "198.51.100.1, 203.0.113.7" });
    expect(res.body).toEqual({ forwardedFor: "203.0.113.7" });
    expect((await proxied.request("/forwarded")).body).toEqual({ forwardedFor: "127.0.0.1" });
  });
});

describe("without an auth handler", () => {
  test("auth: true endpoints always answer 401, credentials or not", async () => {
    for (const path of ["/secret", "/raw/secret/k"]) {
      expect(await bare.request(path, as("alice"))).toEqual({ status: 401, body: noCredentials });
    }
  });

  test("other endpoints serve every caller anonymously", async () => {
    expect((await bare.request("/whoami", as("alice"))).body.auth).toBeNull();
  });
});
