// The dashboard's caches API on the clusters of a fixture app (parser/testdata/caches/valid),
// with keys written by the app's own keyspace classes in this process: the list, and a
// key lookup that reads a key without changing it. Who may call it: test/dashboard-access.http.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fixture } from "../../test/parser-fixtures.ts";
import { startTestDashboard, type TestDashboard } from "../../test/dashboard.ts";
import { closedPort } from "../../test/closed-port.ts";
import { CacheCluster, expireInMinutes, IntKeyspace, StringSetKeyspace, StructKeyspace } from "../../encore.dev/storage/cache/mod.ts";
import { cacheStore, clusterPrefix } from "../cache/mod.ts";
import { parseApp } from "../parser/mod.ts";
import { createDevCalls } from "../server/runtime-routes/dev-calls.ts";
import type { CacheKeyLookup, CachesState } from "./api.ts";

let dash: TestDashboard;
const sessions = new CacheCluster("sessions");
const users = new StructKeyspace<{ id: string; region: string }, { name: string }>(sessions, { keyPattern: "user/:region/:id", defaultExpiry: expireInMinutes(60) });
const counts = new IntKeyspace<string>(sessions, { keyPattern: "count/:key" });
const tags = new StringSetKeyspace<number>(new CacheCluster("tags"), { keyPattern: "tags/:key" });

beforeAll(async () => {
  const meta = parseApp(fixture("caches/valid"));
  dash = await startTestDashboard(`http://127.0.0.1:${await closedPort()}`, createDevCalls(), { meta });
}, 60_000);
afterAll(async () => {
  await dash?.dashboard.close();
});

async function get<T>(route: string): Promise<{ status: number; body: T }> {
  const res = await fetch(`${dash.base}${route}`, { headers: dash.access() });
  return { status: res.status, body: (await res.json()) as T };
}

describe("GET /api/caches", () => {
  test("lists each cluster with its eviction policy and keyspaces, and where the keys are", async () => {
    const { status, body } = await get<CachesState>("/api/caches");
    expect(status).toBe(200);
    expect(body.backend).toBe("memory");
    expect(body.clusters.map((c) => [c.name, c.evictionPolicy, c.keyspaces.map((k) => k.keyPattern)])).toEqual([
      ["sessions", "volatile-ttl", ["count/:key", "user/:region/:id"]],
      ["tags", "allkeys-lru", ["tags/:key"]],
    ]);
    expect(body.clusters[0]!.keyspaces[1]).toEqual({
      type: "StructKeyspace",
      keyPattern: "user/:region/:id",
      keyType: "UserKey",
      valueType: "{ name: string }",
      defaultExpiry: "expireInHours(1)",
      service: "svc",
      source: "svc/cache.ts:10",
    });
  });
});

describe("GET /api/caches/:cluster/key", () => {
  test("a struct value: its JSON, its type and its time to live, which the lookup leaves as it was", async () => {
    await users.set({ id: "42", region: "eu" }, { name: "Ada" });
    const before = (await (await cacheStore()).inspect(`${clusterPrefix("sessions")}user/eu/42`))!.ttlMs!;
    const { status, body } = await get<CacheKeyLookup>("/api/caches/sessions/key?key=user/eu/42");
    expect(status).toBe(200);
    expect(body).toMatchObject({ cluster: "sessions", key: "user/eu/42", entry: { type: "string", value: '{"name":"Ada"}' } });
    expect(body.entry!.ttlMs).toBeGreaterThan(59 * 60_000);
    expect(body.entry!.ttlMs).toBeLessThanOrEqual(before);
    expect(await users.get({ id: "42", region: "eu" })).toEqual({ name: "Ada" });
  });

  test("a number without expiry, a set's members sorted, and a key that does not exist", async () => {
    await counts.increment("visits", 3);
    expect((await get<CacheKeyLookup>("/api/caches/sessions/key?key=count/visits")).body.entry).toEqual({ type: "string", value: "3", ttlMs: null });
    await tags.add(7, "b", "a");
    expect((await get<CacheKeyLookup>("/api/caches/tags/key?key=tags/7")).body.entry).toEqual({ type: "set", value: ["a", "b"], ttlMs: null });
    expect((await get<CacheKeyLookup>("/api/caches/sessions/key?key=count/none")).body).toEqual({ cluster: "sessions", key: "count/none", entry: null });
  });

  test("an unknown cluster is 404, a missing or overlong key 400, in Encore's error format", async () => {
    expect(await get("/api/caches/nope/key?key=a")).toEqual({ status: 404, body: { code: "not_found", message: 'no cache cluster "nope"', details: null } });
    expect((await get<{ code: string }>("/api/caches/sessions/key")).status).toBe(400);
    expect((await get<{ code: string }>(`/api/caches/sessions/key?key=${"k".repeat(1025)}`)).body.code).toBe("invalid_argument");
  });
});
