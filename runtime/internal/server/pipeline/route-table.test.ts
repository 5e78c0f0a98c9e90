// The route table alone, without a server: which method and path reach a fast lane, which
// Fastify, and which a fallback route. Served end to end in fallback-routes.test.ts and
// typed-fast-lane.test.ts.
import type { IncomingMessage, ServerResponse } from "node:http";
import { describe, expect, test } from "vitest";
import { obj, testEndpoint } from "../../../test/endpoints.ts";
import type { RouteContext } from "./route-context.ts";
import { endpointRoute, RouteTable, type TableEntry } from "./route-table.ts";

const ctx: RouteContext = { auth: null, exposeInternalErrors: false, trustProxy: false };
const raw = (_req: IncomingMessage, res: ServerResponse) => res.end();
const code = { name: "code", wildcard: false };

const redirect = endpointRoute(testEndpoint("code", { kind: "raw", methods: ["GET", "HEAD"], path: "/:code", pathParams: [code] }, raw), ctx);
const stats = endpointRoute(
  testEndpoint("stats", { path: "/:code/stats", pathParams: [code], response: obj({ n: { type: "number" } }) }, async () => ({ n: 1 })),
  ctx,
);
const create = endpointRoute(testEndpoint("create", { methods: ["POST"], path: "/url", response: obj({}) }, async () => ({})), ctx);
const frontend = endpointRoute(
  testEndpoint("frontend", { kind: "raw", methods: ["GET", "HEAD"], path: "/!page", pathParams: [{ name: "page", wildcard: true, fallback: true }] }, raw),
  ctx,
);

function entry(table: RouteTable, method: "GET" | "HEAD" | "POST", path: string): TableEntry | null {
  return (table.find(method, path)?.store as TableEntry | undefined) ?? null;
}

describe("the route table", () => {
  test("resolves a raw GET/HEAD endpoint and a fitting typed GET to their fast lanes, HEAD of the typed GET included", () => {
    const table = new RouteTable();
    for (const route of [redirect, stats, create]) table.enter(route);
    expect(redirect.fastLane).not.toBeNull();
    expect(entry(table, "GET", "/abc")?.fastLane).toBe(redirect.fastLane);
    expect(entry(table, "HEAD", "/abc")?.fastLane).toBe(redirect.fastLane);
    expect(stats.fastLane).not.toBeNull();
    expect(entry(table, "GET", "/abc/stats")?.fastLane).toBe(stats.fastLane);
    expect(entry(table, "HEAD", "/abc/stats")?.fastLane).toBe(stats.fastLane);
    expect(entry(table, "POST", "/url")).toEqual({ fastLane: null, fallback: false });
    expect(table.active).toBe(true);
  });

  test("keeps what an endpoint entered when Fastify's onRoute hook reports the same route, and enters the routes only Fastify knows", () => {
    const table = new RouteTable();
    table.enter(redirect);
    table.onRoute(redirect.fastify);
    table.onRoute({ method: ["GET", "HEAD"], url: "/healthz", handler: async () => ({}) });
    expect(entry(table, "GET", "/abc")?.fastLane).toBe(redirect.fastLane);
    expect(entry(table, "GET", "/healthz")).toEqual({ fastLane: null, fallback: false });
  });

  test("has nothing for the front router to do without fast lanes or fallback routes", () => {
    const table = new RouteTable();
    table.enter(create);
    table.onRoute({ method: "GET", url: "/healthz", handler: async () => ({}) });
    expect(table.active).toBe(false);
  });

  test("gives a path to a fallback route only when no other route matches it, a parameter never matching an empty segment", () => {
    const table = new RouteTable();
    for (const route of [redirect, create, frontend]) table.enter(route);
    table.onRoute({ method: ["GET", "HEAD"], url: "/healthz", handler: async () => ({}) });
    expect(entry(table, "GET", "/abc")?.fastLane).toBe(redirect.fastLane);
    expect(entry(table, "GET", "/healthz")).toEqual({ fastLane: null, fallback: false });
    expect(entry(table, "GET", "/a/b/c")).toEqual({ fastLane: frontend.fastLane, fallback: true });
    expect(entry(table, "GET", "/")).toEqual({ fastLane: frontend.fastLane, fallback: true });
    // The fallback answers GET and HEAD: a POST is Fastify's without a lookup here.
    expect([...table.fallbackMethods].sort()).toEqual(["GET", "HEAD"]);
  });
});
