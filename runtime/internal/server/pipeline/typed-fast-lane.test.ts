// A typed GET endpoint answers alike from the fast lane (typed-fast-lane.ts) and from its
// Fastify route: the same endpoints, served once as they are and once with a middleware
// that only calls next(), which keeps them on Fastify, must give the same answers.
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { config } from "../../config/mod.ts";
import { APIError } from "../../errors/api-error.ts";
import type { EndpointMeta, JSONSchema, RequestMeta } from "../../meta/types.ts";
import { compileChain } from "../../middleware/chain.ts";
import { middleware } from "../../middleware/middleware.ts";
import type { AuthHandlerEntry, Endpoint } from "../../registry/endpoints.ts";
import { obj, testEndpoint } from "../../../test/endpoints.ts";
import { buildHttpServer } from "../http-server.ts";
import { fitsTypedFastLane } from "./typed-fast-lane.ts";

const date: JSONSchema = { type: "string", format: "date-time", "x-encore-type": "date" };

const lookupRequest: RequestMeta = {
  fields: [
    { name: "code", location: "path", wireName: "code", optional: false },
    { name: "limit", location: "query", wireName: "limit", optional: true },
    { name: "tags", location: "query", wireName: "tag", optional: true },
    { name: "trace", location: "header", wireName: "x-trace", optional: true },
  ],
  path: obj({ code: { type: "string" } }, ["code"]),
  query: obj({ limit: { type: "number" }, tag: { type: "array", items: { type: "string" } } }),
  headers: obj({ "x-trace": { type: "string" } }),
  body: null,
  full: obj({ code: { type: "string" }, limit: { type: "number" }, tags: { type: "array", items: { type: "string" } }, trace: { type: "string" } }, ["code"]),
};

const endpoint = (name: string, partial: Partial<EndpointMeta>, handler: (p: Record<string, unknown>) => unknown): Endpoint =>
  testEndpoint(name, { path: `/svc.${name}`, response: obj({ ok: { type: "boolean" } }), ...partial }, handler);

const made = new Date("2026-01-02T03:04:05.678Z");
const endpoints = (): Endpoint[] => [
  endpoint("lookup", { path: "/lookup/:code", pathParams: [{ name: "code", wildcard: false }] as EndpointMeta["pathParams"], request: lookupRequest, response: obj({ code: { type: "string" }, limit: { type: "number" }, tags: {}, trace: { type: "string" }, at: date }) }, async (p) => {
    if (p["code"] === "gone") throw APIError.notFound("no such code").withDetails({ code: "gone" });
    if (p["code"] === "busy") throw APIError.resourceExhausted("slow down").withDetails({ retryAfterSeconds: 7 });
    if (p["code"] === "boom") throw new Error("secret internals");
    return { ...p, at: made, extra: "not declared: left out" };
  }),
  endpoint("sync", {}, () => ({ ok: true })),
  endpoint("mine", { auth: true }, async () => ({ ok: true })),
];

const auth: AuthHandlerEntry = {
  meta: {
    service: "svc",
    name: "auth",
    params: { fields: [{ name: "authorization", location: "header", wireName: "authorization", optional: true }], path: null, query: null, headers: obj({ authorization: { type: "string" } }), body: null, full: obj({ authorization: { type: "string" } }) },
    authData: obj({ userID: { type: "string" } }, ["userID"]),
  },
  handler: async (p: { authorization?: string }) => {
    if (p.authorization !== "Bearer good") throw APIError.unauthenticated("bad token");
    return { userID: "u1" };
  },
} as unknown as AuthHandlerEntry;

async function serve(onFastify: boolean): Promise<{ http: FastifyInstance; url: string }> {
  const passThrough = middleware(async (req, next) => next(req));
  const list = endpoints().map((e) => (onFastify ? { ...e, chain: compileChain("svc", [passThrough]) } : e));
  if (!onFastify) expect(list.every(fitsTypedFastLane)).toBe(true);
  else expect(list.some(fitsTypedFastLane)).toBe(false);
  const server = await buildHttpServer(list, { appRoot: process.cwd(), exposeInternalErrors: false, pubsubAdminToken: null, objects: config().objects, trustProxy: false }, { auth });
  const url = await server.listen({ port: 0, host: "127.0.0.1" });
  return { http: server, url };
}

let lane: { http: FastifyInstance; url: string };
let fastify: { http: FastifyInstance; url: string };
beforeAll(async () => {
  [lane, fastify] = await Promise.all([serve(false), serve(true)]);
});
afterAll(async () => {
  await Promise.all([lane.http.close(), fastify.http.close()]);
});

/** What a client sees of an answer, less what differs per response. */
async function seen(base: string, path: string, init: RequestInit = {}) {
  const res = await fetch(base + path, init);
  const headers = Object.fromEntries([...res.headers].filter(([name]) => !["date", "x-request-id", "connection", "keep-alive"].includes(name)));
  return { status: res.status, headers, body: await res.text() };
}

describe("the fast lane and Fastify answer a typed GET alike", () => {
  const cases: [string, string, RequestInit?][] = [
    ["path, query and header fields, a date, an undeclared field", "/lookup/ab%20c?limit=5&tag=x&tag=y", { headers: { "x-trace": "t-1" } }],
    ["no query at all", "/lookup/abc"],
    ["an empty query", "/lookup/abc?"],
    ["a query field of the wrong type", "/lookup/abc?limit=many"],
    ["an APIError with details", "/lookup/gone"],
    ["an APIError with Retry-After", "/lookup/busy"],
    ["an unexpected error, its message hidden", "/lookup/boom"],
    ["HEAD: the GET's headers and no body", "/lookup/abc?limit=1", { method: "HEAD" }],
    ["a handler that returns without a promise", "/svc.sync"],
    ["auth required, no credentials", "/svc.mine"],
    ["auth required, rejected credentials", "/svc.mine", { headers: { authorization: "Bearer bad" } }],
    ["auth required, good credentials", "/svc.mine", { headers: { authorization: "Bearer good" } }],
  ];
  test.each(cases)("%s", async (_name, path, init) => {
    const [fromLane, fromFastify] = await Promise.all([seen(lane.url, path, init), seen(fastify.url, path, init)]);
    expect(fromLane).toEqual(fromFastify);
  });

  test("the answers are the ones expected, not merely equal", async () => {
    const ok = await seen(lane.url, "/lookup/ab%20c?limit=5&tag=x&tag=y", { headers: { "x-trace": "t-1" } });
    expect(ok.status).toBe(200);
    expect(ok.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(JSON.parse(ok.body)).toEqual({ code: "ab c", limit: 5, tags: ["x", "y"], trace: "t-1", at: made.toISOString() });
    const bad = await seen(lane.url, "/lookup/abc?limit=many");
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ code: "invalid_argument" });
    const busy = await seen(lane.url, "/lookup/busy");
    expect(busy.status).toBe(429);
    expect(busy.headers["retry-after"]).toBe("7");
    const boom = await seen(lane.url, "/lookup/boom");
    expect(boom).toMatchObject({ status: 500, body: JSON.stringify({ code: "internal", message: "an internal error occurred", details: null }) });
    const head = await seen(lane.url, "/lookup/abc", { method: "HEAD" });
    expect(head.body).toBe("");
    expect(Number(head.headers["content-length"])).toBeGreaterThan(0);
    expect((await seen(lane.url, "/svc.mine")).status).toBe(401);
    // Every response carries its request id, answers and errors alike.
    for (const path of ["/svc.sync", "/lookup/gone"]) expect((await fetch(lane.url + path)).headers.get("x-request-id")).toBeTruthy();
  });
});
