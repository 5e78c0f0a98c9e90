// One setting bounds the connections an instance's runtime opens, however hard it is pushed.
import { rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, expect, test } from "vitest";
import { startCluster, stopCluster } from "../runtime/internal/sql/embedded/cluster.ts";
import { startApp, type RunningApp, type StartFailure } from "./support/app-process.ts";
import { tempDataDir } from "../runtime/vitest/temp-dir.ts";

const dataDir = tempDataDir("connection-limit-test-");
const clusterDir = path.join(dataDir, "postgres");
// The app declares 8 databases, and the runtime has 2 of its own (pub/sub, cron): 18 gives most
// pools 2 connections, and keeps 2 apart for LISTEN and the presence on the cluster.
const maxConnections = 18;
const env = {
  DATA_DIR: dataDir,
  DATABASE_URL: "",
  DATABASE_NAME_PREFIX: "",
  DATABASE_MAX_CONNECTIONS: String(maxConnections),
  // Requests queue for the few connections; on a loaded machine none should give up waiting.
  DATABASE_CONNECT_TIMEOUT_MS: "30000",
  // Each click written before its lookup is answered. Batched, a flush waits in url's pool
  // of 2 behind dozens of queries, and on a loaded machine can outlast the 2 s a stats read
  // waits for a flush before it answers 503 by design (click-counter/counter.ts): a figure of
  // this machine's load, not of the connection bound this test is about.
  CLICK_FLUSH_INTERVAL_MS: "0",
};

afterAll(async () => {
  await stopCluster(clusterDir);
  rmSync(dataDir, { recursive: true, force: true });
});

async function post(app: RunningApp, route: string, body: unknown): Promise<Record<string, string>> {
  const res = await fetch(`${app.url}${route}`, { method: "POST", body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, string>;
}

test("under load the runtime never holds more connections than DATABASE_MAX_CONNECTIONS", async () => {
  const app = await startApp(env);
  try {
    const codes: string[] = [];
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) {
      codes.push((await post(app, "/shorten", { url: `https://example.com/limit/${i}` })).code!);
      ids.push((await post(app, "/url", { url: `https://example.com/limit-b/${i}` })).id!);
    }

    // The process's own connections carry its name (runtime/internal/sql/embedded/session.ts).
    // The url service's LISTEN connection (cache evictions, host bans) is the app's own, not the
    // runtime's: like pools the app opens on connectionString, it comes on top of the bound.
    const { url } = await startCluster({ dir: clusterDir });
    const watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
    const samples: number[] = [];
    let loading = true;
    const watch = (async () => {
      while (loading) {
        const { rows } = await watcher.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND (query IS NULL OR query NOT LIKE 'LISTEN url_%')",
          [`encore-selfhost/${app.child.pid}`],
        );
        samples.push(rows[0]!.n);
        await new Promise((r) => setTimeout(r, 20));
      }
    })();

    // 48 clients at once, over every database the runtime pools: url (links, stats, clicks,
    // the outbox), urlb, analytics, pub/sub (each shorten's event) and all of them in /healthz.
    const routes = [
      ...codes.flatMap((c) => [`/${c}`, `/${c}/stats`]),
      ...ids.map((id) => `/url/${id}`),
      "/analytics/daily",
      "/healthz",
    ];
    const deadline = Date.now() + 4000;
    const statuses = new Set<number>();
    await Promise.all(
      Array.from({ length: 48 }, async (_, client) => {
        for (let i = client; Date.now() < deadline; i += 48) {
          const res =
            i % 5 === 0
              ? await fetch(`${app.url}/shorten`, { method: "POST", body: JSON.stringify({ url: `https://example.com/more/${i}` }) })
              : await fetch(`${app.url}${routes[i % routes.length]}`);
          await res.arrayBuffer();
          statuses.add(res.status);
        }
      }),
    );
    loading = false;
    await watch;
    await watcher.end();

    expect([...statuses]).toEqual([200]); // pushed hard, but never past what the pools can serve in time
    expect(Math.max(...samples)).toBeLessThanOrEqual(maxConnections);
    expect(Math.max(...samples)).toBeGreaterThanOrEqual(maxConnections / 2); // the pools were really pushed
  } finally {
    expect(await app.stop()).toBe(0);
  }
}, 120_000);

test("a setting too small to give every database a connection stops start-up, naming the minimum", async () => {
  const failure = (await startApp({ ...env, DATABASE_MAX_CONNECTIONS: "11" }).catch((e: unknown) => e)) as StartFailure;
  expect(failure.exitCode).toBe(1);
  expect(failure.output).toMatch(/start-up failed: invalid configuration: DATABASE_MAX_CONNECTIONS must be at least 13 for this app/);
}, 60_000);
