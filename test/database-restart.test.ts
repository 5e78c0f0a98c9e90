// The database stops and comes back while 16 clients look links up and shorten new
// ones: the app keeps running, answers 200 or 503 and nothing else, serves cached
// links throughout, recovers on its own, and loses nothing it acknowledged.
import { rmSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, expect, test } from "vitest";
import { pubsubDatabaseName } from "../runtime/internal/pubsub/sql-schema.ts";
import { startCluster, stopCluster } from "../runtime/internal/sql/embedded/cluster.ts";
import { startApp, type RunningApp } from "../runtime/test/process.ts";
import { tempDataDir } from "../runtime/test/temp-dir.ts";

const dataDir = tempDataDir("database-restart-test-");
const clusterDir = path.join(dataDir, "postgres");
const env = {
  // The embedded cluster is this test's own, so stopping it disturbs no other test.
  DATA_DIR: dataDir,
  DATABASE_URL: "",
  DATABASE_NAME_PREFIX: "",
  DATABASE_CONNECT_TIMEOUT_MS: "2000",
};

afterAll(async () => {
  await stopCluster(clusterDir);
  rmSync(dataDir, { recursive: true, force: true });
});

const clients = 16;
/** Longest any one request may take: the connect timeout, with room for a loaded machine. Longer is a hang. */
const requestLimitMs = 10_000;

/** Where the database was when a request was sent. */
type Phase = "up" | "stopping" | "down" | "starting" | "back";
type Kind = "cached lookup" | "uncached lookup" | "shorten" | "product";
/** An HTTP status, or "no answer": refused, reset, or over the limit. */
type Outcome = number | "no answer";

interface Shortened {
  readonly code: string;
  readonly url: string;
}

async function send(app: RunningApp, route: string, init: RequestInit = {}): Promise<{ status: Outcome; body?: string }> {
  try {
    const res = await fetch(`${app.url}${route}`, { ...init, signal: AbortSignal.timeout(requestLimitMs) });
    return { status: res.status, body: await res.text() };
  } catch {
    return { status: "no answer" };
  }
}

async function shorten(app: RunningApp, url: string): Promise<{ status: Outcome; code?: string }> {
  const { status, body } = await send(app, "/shorten", { method: "POST", body: JSON.stringify({ url }) });
  return { status, code: status === 200 ? (JSON.parse(body!) as { code: string }).code : undefined };
}

/** Answers and what they count, kept by the clients. */
class Tally {
  readonly counts = new Map<string, number>();
  /** 200 answers to GET /:code, each one click. */
  readonly clicks = new Map<string, number>();
  readonly shortened: Shortened[] = [];

  add(kind: Kind, phase: Phase, status: Outcome): void {
    const key = `${kind} / ${phase} / ${status}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }

  count(filter: (kind: string, phase: string, status: string) => boolean): number {
    let n = 0;
    for (const [key, c] of this.counts) if (filter(...(key.split(" / ") as [string, string, string]))) n += c;
    return n;
  }

  /** Every answer that was neither 200 nor 503, by kind, phase and status. */
  unexpected(): Record<string, number> {
    return Object.fromEntries([...this.counts].filter(([key]) => !/ \/ (200|503)$/.test(key)));
  }
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

test("the app rides out a database restart under load: 200 or 503 only, cached links served, nothing acknowledged lost", async () => {
  const app = await startApp(env);
  let exited = false;
  app.child.once("exit", () => (exited = true));

  // Links to look up: some cached by a HEAD (which counts no click), the rest not yet.
  const seeded: Shortened[] = [];
  for (let i = 0; i < 60; i++) {
    const url = `https://example.com/seed/${i}`;
    const { status, code } = await shorten(app, url);
    expect(status).toBe(200);
    seeded.push({ code: code!, url });
  }
  const cached = seeded.slice(0, 20).map((s) => s.code);
  for (const code of cached) expect((await send(app, `/${code}`, { method: "HEAD" })).status).toBe(200);
  const uncached = seeded.slice(20).map((s) => s.code);

  const tally = new Tally();
  let phase: Phase = "up";
  let running = true;
  let serial = 0;
  const lookUp = async (kind: Kind, code: string) => {
    const at = phase;
    const { status } = await send(app, `/${code}`);
    tally.add(kind, at, status);
    if (status === 200) tally.clicks.set(code, (tally.clicks.get(code) ?? 0) + 1);
  };
  const client = async () => {
    while (running) {
      const roll = Math.random();
      const at = phase;
      if (roll < 0.6) await lookUp("cached lookup", pick(cached));
      else if (roll < 0.75) await lookUp("uncached lookup", pick(uncached));
      else if (roll < 0.8) {
        // A product: drizzle's own pool, which the runtime does not manage, on the same cluster.
        tally.add("product", at, (await send(app, `/products/${1 + Math.floor(Math.random() * 4)}`)).status);
      } else {
        const url = `https://example.com/load/${serial++}`;
        const { status, code } = await shorten(app, url);
        tally.add("shorten", at, status);
        if (code) {
          tally.shortened.push({ code, url });
          uncached.push(code);
        }
      }
    }
  };
  const load = Promise.all(Array.from({ length: clients }, client));

  await sleep(2000);
  phase = "stopping";
  await stopCluster(clusterDir);
  phase = "down";
  await sleep(1000);
  const healthDown = await send(app, "/healthz");
  await sleep(4000);
  phase = "starting";
  const restarted = await startCluster({ dir: clusterDir }); // on the port it had
  phase = "back";
  let healthBack = await send(app, "/healthz");
  for (const deadline = Date.now() + 10_000; healthBack.status !== 200 && Date.now() < deadline; await sleep(200)) {
    healthBack = await send(app, "/healthz");
  }
  await sleep(3000);
  running = false;
  await load;

  expect(exited).toBe(false);
  expect(await app.stop()).toBe(0);
  expect(restarted.started).toBe(true);

  expect(tally.unexpected()).toEqual({});
  expect(healthDown.status).toBe(503);
  expect(healthBack.status).toBe(200);
  // Cached links were served all along, and the outage was felt by what needs the database.
  expect(tally.count((kind, at) => kind === "cached lookup" && at === "down")).toBeGreaterThan(0);
  expect(tally.count((kind, at, status) => kind === "cached lookup" && at === "down" && status !== "200")).toBe(0);
  expect(tally.count((kind, at, status) => kind === "shorten" && at === "down" && status === "503")).toBeGreaterThan(0);
  expect(tally.count((kind, at, status) => kind === "product" && at === "down" && status === "503")).toBeGreaterThan(0);
  // It passed by itself: shortens succeed again, without a restart of the app.
  expect(tally.count((kind, at, status) => kind === "shorten" && at === "back" && status === "200")).toBeGreaterThan(0);

  // What the databases hold, read with the app stopped (its clean stop wrote what it kept).
  const { url: serverUrl } = await startCluster({ dir: clusterDir });
  const query = async <T extends pg.QueryResultRow>(database: string, text: string): Promise<T[]> => {
    const client = new pg.Client({ connectionString: serverUrl.replace(/\/postgres$/, `/${database}`) });
    await client.connect();
    try {
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end();
    }
  };
  const rows = await query<{ code: string; original_url: string; clicks: number }>("url", "SELECT code, original_url, clicks FROM urls");
  const stored = new Map(rows.map((r) => [r.code, r]));
  const lost = [...seeded, ...tally.shortened].filter((s) => stored.get(s.code)?.original_url !== s.url);
  expect(lost).toEqual([]);
  const storedClicks = Object.fromEntries(rows.filter((r) => r.clicks > 0).map((r) => [r.code, r.clicks]));
  expect(storedClicks).toEqual(Object.fromEntries(tally.clicks));

  // Every stored link's url-shortened event is counted by analytics, waits in the outbox,
  // or waits for delivery: none is lost (one published twice only adds).
  const count = async (database: string, text: string) => (await query<{ n: number }>(database, text))[0]!.n;
  const counted = await count("analytics", "SELECT count(*)::int AS n FROM processed_events");
  const inOutbox = await count("url", "SELECT count(*)::int AS n FROM url_shortened_outbox");
  const undelivered = await count(pubsubDatabaseName, "SELECT count(*)::int AS n FROM pubsub_delivery WHERE subscription = 'track-analytics'");
  expect(counted + inOutbox + undelivered).toBeGreaterThanOrEqual(rows.length);
}, 120_000);
