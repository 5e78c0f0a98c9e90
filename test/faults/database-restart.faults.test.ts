// The database stops for 10 s and comes back while 16 clients look links up, shorten new
// ones and read stats: the app keeps running, answers 200 or 503 (fast) and nothing else,
// serves cached links throughout, recovers on its own, and loses nothing it acknowledged:
// every acknowledged link is stored and every answered click counted, exactly, in urls.clicks
// and in each analytics dimension, as a person's or a bot's as sent.
import { rmSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, expect, test } from "vitest";
import { pubsubDatabaseName } from "../../runtime/internal/pubsub/sql-schema.ts";
import { startCluster, stopCluster } from "../../runtime/internal/sql/embedded/cluster.ts";
import { startApp } from "../support/app-process.ts";
import { tempDataDir } from "../../runtime/vitest/temp-dir.ts";
import { expectClickAnalytics } from "./click-analytics.ts";
import { rps, send, shortenLimitsOff, summary, Tally } from "./load.ts";
import { expectExactStats, expectNothingLost, outageLoad, seedOutageLinks, slowest503 } from "./outage-load.ts";
import { queryDatabase } from "./query.ts";

const dataDir = tempDataDir("database-restart-test-");
const clusterDir = path.join(dataDir, "postgres");
const connectTimeoutMs = 2000;
const env = {
  // The embedded cluster is this test's own, so stopping it disturbs no other test.
  DATA_DIR: dataDir,
  DATABASE_URL: "",
  DATABASE_NAME_PREFIX: "",
  DATABASE_CONNECT_TIMEOUT_MS: String(connectTimeoutMs),
  ...shortenLimitsOff,
};

afterAll(async () => {
  await stopCluster(clusterDir);
  rmSync(dataDir, { recursive: true, force: true });
});

const clients = 16;
const downMs = 10_000;
/** Longest any one request may take: the connect timeout, with room for a loaded machine. Longer is a hang. */
const requestLimitMs = 10_000;
/** A 503 must come fast: within the connect timeout, with room for a loaded machine. */
const unavailableWithinMs = connectTimeoutMs + 3000;

/** Where the database was when a request was sent. */
type Phase = "up" | "stopping" | "down" | "starting" | "back";

test("the app rides out a 10 s database outage under load: 200 or fast 503 only, cached links served, nothing acknowledged lost, stats exact", async () => {
  const app = await startApp(env);
  let exited = false;
  app.child.once("exit", () => (exited = true));

  // Links to look up: some cached by a HEAD (which counts no click), the rest not yet.
  const links = await seedOutageLinks(app, 60, "seed");
  const tally = new Tally();
  let phase: Phase = "up";
  const load = outageLoad(app, links, tally, {
    clients,
    requestLimitMs,
    phase: () => phase,
    // A product: drizzle's own pool, which the runtime does not manage, on the same cluster.
    extra: { share: 0.05, kind: "product", route: () => `/products/${1 + Math.floor(Math.random() * 4)}` },
  });

  await sleep(2000);
  phase = "stopping";
  await stopCluster(clusterDir);
  phase = "down";
  await sleep(1000);
  const healthDown = await send(app, "/healthz");
  await sleep(downMs - 1000);
  phase = "starting";
  const restarted = await startCluster({ dir: clusterDir }); // on the port it had
  phase = "back";
  let healthBack = await send(app, "/healthz");
  for (const deadline = Date.now() + 10_000; healthBack.status !== 200 && Date.now() < deadline; await sleep(200)) {
    healthBack = await send(app, "/healthz");
  }
  await sleep(3000);
  await load.stop();
  const loadMs = performance.now() - load.startedAt;

  await expectExactStats(app, links.cached, tally);

  expect(exited).toBe(false);
  expect(await app.stop()).toBe(0);
  expect(restarted.started).toBe(true);

  expect(tally.unexpected()).toEqual({});
  expect(healthDown.status).toBe(503);
  expect(healthBack.status).toBe(200);
  const slow503 = [...tally.slowest].filter(([key, ms]) => key.endsWith(" / 503") && ms > unavailableWithinMs);
  expect(slow503).toEqual([]);
  // Cached links were served all along, and the outage was felt by what needs the database.
  expect(tally.count((kind, at) => kind === "cached lookup" && at === "down")).toBeGreaterThan(0);
  expect(tally.count((kind, at, status) => kind === "cached lookup" && at === "down" && status !== "200")).toBe(0);
  expect(tally.count((kind, at, status) => kind === "shorten" && at === "down" && status === "503")).toBeGreaterThan(0);
  expect(tally.count((kind, at, status) => kind === "product" && at === "down" && status === "503")).toBeGreaterThan(0);
  // It passed by itself: shortens succeed again, without a restart of the app.
  expect(tally.count((kind, at, status) => kind === "shorten" && at === "back" && status === "200")).toBeGreaterThan(0);

  // What the databases hold, read with the app stopped (its clean stop wrote what it kept).
  const { url: serverUrl } = await startCluster({ dir: clusterDir });
  const rows = await expectNothingLost(serverUrl, links, tally);
  await expectClickAnalytics(serverUrl, "url", tally, { exact: true });

  // Every stored link's url-shortened event is counted by analytics, waits in the outbox,
  // or waits for delivery: none is lost (one published twice only adds).
  const count = async (database: string, text: string) => (await queryDatabase<{ n: number }>(serverUrl, database, text))[0]!.n;
  const counted = await count("analytics", "SELECT count(*)::int AS n FROM processed_events");
  const inOutbox = await count("url", "SELECT count(*)::int AS n FROM url_shortened_outbox");
  const undelivered = await count(pubsubDatabaseName, "SELECT count(*)::int AS n FROM pubsub_delivery WHERE subscription = 'track-analytics'");
  expect(counted + inOutbox + undelivered).toBeGreaterThanOrEqual(rows.length);

  summary("database restart", {
    "load held": `${tally.requests} requests, ${rps(tally.requests, loadMs)} rps, ${clients} clients`,
    "faults survived": `PostgreSQL down ${downMs / 1000} s, ${tally.count((_, __, s) => s === "503")} answers 503 (slowest ${Math.round(slowest503(tally))} ms)`,
    "acknowledged links": links.seeded.length + tally.shortened.length,
    "answered clicks": `${tally.totalClicks} (${tally.totalHumanClicks} as browsers)`,
    lost: Math.abs(tally.totalClicks - rows.reduce((n, r) => n + r.clicks, 0)),
  });
}, 150_000);
