// The network to the database drops every packet for 8 s (a TCP proxy that stops
// forwarding: nothing refused, nothing reset, no answer) while 8 clients look links up,
// shorten and read stats; then it heals and what was sent meanwhile arrives late. Only
// timeouts can tell the app the database is gone. It must answer 200 or 503 (within its
// timeouts), serve cached links throughout, never store a click twice however late a
// statement it gave up on reaches the server, and recover by itself.
import { rmSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, expect, test } from "vitest";
import { startCluster, stopCluster } from "../../runtime/internal/sql/embedded/cluster.ts";
import { startApp } from "../../runtime/test/process.ts";
import { tempDataDir } from "../../runtime/test/temp-dir.ts";
import { BlackHoleProxy } from "./black-hole.ts";
import { pick, rps, runClients, seedLinks, send, shorten, shortenLimitsOff, summary, Tally } from "./load.ts";
import { queryDatabase } from "./query.ts";

const dataDir = tempDataDir("black-hole-test-");
const clusterDir = path.join(dataDir, "postgres");
let proxy: BlackHoleProxy | undefined;

afterAll(async () => {
  await proxy?.close();
  await stopCluster(clusterDir);
  rmSync(dataDir, { recursive: true, force: true });
});

const clients = 8;
const connectTimeoutMs = 1000;
const queryTimeoutMs = 2000;
const holeMs = 8000;
/** A stats read may wait 2 s for a write of clicks to settle, then run its query. */
const settleMs = 2000;
/** The longest a 503 may take: every timeout a request can meet in turn, with room for a loaded machine. */
const unavailableWithinMs = connectTimeoutMs + settleMs + queryTimeoutMs + 3000;
/** Longer than this is a hang. */
const requestLimitMs = 20_000;

type Phase = "up" | "hole" | "back";

test("the app rides out a network black hole to its database: 200 or 503 within its timeouts, cached links served, every click stored once", async () => {
  const cluster = await startCluster({ dir: clusterDir });
  proxy = await BlackHoleProxy.start({ host: "127.0.0.1", port: cluster.port });
  const throughProxy = new URL(cluster.url);
  throughProxy.port = String(proxy.port);
  const app = await startApp({
    DATA_DIR: dataDir,
    DATABASE_URL: throughProxy.href,
    DATABASE_NAME_PREFIX: "",
    DATABASE_CONNECT_TIMEOUT_MS: String(connectTimeoutMs),
    DATABASE_QUERY_TIMEOUT_MS: String(queryTimeoutMs),
    ...shortenLimitsOff,
  });
  let exited = false;
  app.child.once("exit", () => (exited = true));

  const seeded = await seedLinks(app, 40, "hole");
  const cached = seeded.slice(0, 20).map((s) => s.code);
  for (const code of cached) expect((await send(app, `/${code}`, { method: "HEAD" })).status).toBe(200);
  const uncached = seeded.slice(20).map((s) => s.code);

  const tally = new Tally();
  let phase: Phase = "up";
  let serial = 0;
  const lookUp = async (kind: string, code: string) => {
    const at = phase;
    const answer = await send(app, `/${code}`, {}, requestLimitMs);
    tally.add(kind, at, answer);
    if (answer.status === 200) tally.click(code);
  };
  const load = runClients(clients, async () => {
    const roll = Math.random();
    const at = phase;
    if (roll < 0.55) await lookUp("cached lookup", pick(cached));
    else if (roll < 0.7) await lookUp("uncached lookup", pick(uncached));
    else if (roll < 0.8) tally.add("stats", at, await send(app, `/${pick(cached)}/stats`, {}, requestLimitMs));
    else {
      const url = `https://example.com/hole/${serial++}`;
      const answer = await shorten(app, url, requestLimitMs);
      tally.add("shorten", at, answer);
      if (answer.code) {
        tally.shortened.push({ code: answer.code, url });
        uncached.push(answer.code);
      }
    }
  });

  await sleep(2000);
  phase = "hole";
  proxy.cut();
  await sleep(holeMs);
  proxy.heal();
  phase = "back";
  await sleep(6000);
  await load.stop();
  const loadMs = performance.now() - load.startedAt;

  // Stats are exact while the app runs: stored clicks plus those it holds, each answered click once.
  const statsAfter: Record<string, number> = {};
  for (const code of cached) {
    const { status, body } = await send(app, `/${code}/stats`);
    expect(status).toBe(200);
    statsAfter[code] = (JSON.parse(body!) as { clicks: number }).clicks;
  }
  expect(statsAfter).toEqual(Object.fromEntries(cached.map((c) => [c, tally.clicks.get(c) ?? 0])));
  expect(exited).toBe(false);
  expect(await app.stop()).toBe(0);

  expect(tally.unexpected()).toEqual({});
  const slow503 = [...tally.slowest].filter(([key, ms]) => key.endsWith(" / 503") && ms > unavailableWithinMs);
  expect(slow503).toEqual([]);
  // Cached links were served all along; what needs the database felt the hole, and got over it.
  expect(tally.count((kind, at) => kind === "cached lookup" && at === "hole")).toBeGreaterThan(0);
  expect(tally.count((kind, at, status) => kind === "cached lookup" && at === "hole" && status !== "200")).toBe(0);
  expect(tally.count((kind, at, status) => kind === "shorten" && at === "hole" && status === "503")).toBeGreaterThan(0);
  expect(tally.count((kind, at, status) => kind === "shorten" && at === "back" && status === "200")).toBeGreaterThan(0);

  // With the app stopped (a clean stop writes what it kept): every acknowledged link, every answered click once.
  const rows = await queryDatabase<{ code: string; original_url: string; clicks: number }>(cluster.url, "url", "SELECT code, original_url, clicks FROM urls");
  const stored = new Map(rows.map((r) => [r.code, r]));
  const lost = [...seeded, ...tally.shortened].filter((s) => stored.get(s.code)?.original_url !== s.url);
  expect(lost).toEqual([]);
  const storedClicks = Object.fromEntries(rows.filter((r) => r.clicks > 0).map((r) => [r.code, r.clicks]));
  expect(storedClicks).toEqual(Object.fromEntries(tally.clicks));

  const slowest503 = Math.max(0, ...[...tally.slowest].filter(([key]) => key.endsWith(" / 503")).map(([, ms]) => ms));
  summary("network black hole", {
    "load held": `${tally.requests} requests, ${rps(tally.requests, loadMs)} rps, ${clients} clients`,
    "faults survived": `every packet to PostgreSQL dropped for ${holeMs / 1000} s, then delivered late: ${tally.count((_, __, s) => s === "503")} answers 503 (slowest ${Math.round(slowest503)} ms; query timeout ${queryTimeoutMs} ms)`,
    "acknowledged links": seeded.length + tally.shortened.length,
    "answered clicks": tally.totalClicks,
    lost: lost.length + Math.abs(tally.totalClicks - rows.reduce((n, r) => n + r.clicks, 0)),
  });
}, 150_000);
