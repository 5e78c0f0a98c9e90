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
import { startApp } from "../support/app-process.ts";
import { tempDataDir } from "../../runtime/vitest/temp-dir.ts";
import { BlackHoleProxy } from "./black-hole.ts";
import { expectClickAnalytics } from "./click-analytics.ts";
import { rps, shortenLimitsOff, summary, Tally } from "./load.ts";
import { expectExactStats, expectNothingLost, outageLoad, seedOutageLinks, slowest503 } from "./outage-load.ts";

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

  const links = await seedOutageLinks(app, 40, "hole");
  const tally = new Tally();
  let phase: Phase = "up";
  const load = outageLoad(app, links, tally, { clients, requestLimitMs, phase: () => phase });

  await sleep(2000);
  phase = "hole";
  proxy.cut();
  await sleep(holeMs);
  proxy.heal();
  phase = "back";
  await sleep(6000);
  await load.stop();
  const loadMs = performance.now() - load.startedAt;

  await expectExactStats(app, links.cached, tally);
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

  const rows = await expectNothingLost(cluster.url, links, tally);
  await expectClickAnalytics(cluster.url, "url", tally, { exact: true });

  summary("network black hole", {
    "load held": `${tally.requests} requests, ${rps(tally.requests, loadMs)} rps, ${clients} clients`,
    "faults survived": `every packet to PostgreSQL dropped for ${holeMs / 1000} s, then delivered late: ${tally.count((_, __, s) => s === "503")} answers 503 (slowest ${Math.round(slowest503(tally))} ms; query timeout ${queryTimeoutMs} ms)`,
    "acknowledged links": links.seeded.length + tally.shortened.length,
    "answered clicks": `${tally.totalClicks} (${tally.totalHumanClicks} as browsers)`,
    lost: Math.abs(tally.totalClicks - rows.reduce((n, r) => n + r.clicks, 0)),
  });
}, 150_000);
