// A stop while the database is away: the app keeps retrying its answered clicks and
// the runtime keeps the database open for those retries, until a deadline; past it
// the clicks still unwritten stay in the click journal on disk, and the next start
// stores them.
import { rmSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, expect, test } from "vitest";
import { startCluster, stopCluster } from "../runtime/internal/sql/embedded/cluster.ts";
import { startApp, type RunningApp } from "./support/app-process.ts";
import { tempDataDir } from "../runtime/vitest/temp-dir.ts";

const dataDir = tempDataDir("url-stop-away-test-");
const clusterDir = path.join(dataDir, "postgres");
const env = {
  // The embedded cluster is this test's own, so stopping it disturbs no other test.
  DATA_DIR: dataDir,
  DATABASE_URL: "",
  DATABASE_NAME_PREFIX: "",
  DATABASE_CONNECT_TIMEOUT_MS: "1000",
  CLICK_FLUSH_INTERVAL_MS: "600000",
};

afterAll(async () => {
  await stopCluster(clusterDir);
  rmSync(dataDir, { recursive: true, force: true });
});

/** A fresh link, clicked `n` times, every click answered 200. */
async function clickedLink(app: RunningApp, n: number): Promise<string> {
  const res = await fetch(`${app.url}/shorten`, { method: "POST", body: JSON.stringify({ url: `https://example.com/away/${Math.random()}` }) });
  const { code } = (await res.json()) as { code: string };
  const statuses = await Promise.all(Array.from({ length: n }, () => fetch(`${app.url}/${code}`).then((r) => r.status)));
  expect(statuses.filter((s) => s === 200)).toHaveLength(n);
  return code;
}

async function storedClicks(code: string): Promise<number | undefined> {
  const { url } = await startCluster({ dir: clusterDir });
  const client = new pg.Client({ connectionString: url.replace(/\/postgres$/, "/url") });
  await client.connect();
  try {
    return (await client.query<{ clicks: number }>("SELECT clicks FROM urls WHERE code = $1", [code])).rows[0]?.clicks;
  } finally {
    await client.end();
  }
}

test("a stop with the database away for 2 s still writes every answered click", async () => {
  const app = await startApp(env);
  const code = await clickedLink(app, 40);
  await stopCluster(clusterDir);
  const stopping = app.stop("SIGTERM");
  await sleep(2000);
  await startCluster({ dir: clusterDir }); // on the port it had
  await stopping;
  expect(app.output()).not.toMatch(/clicks lost/);
  expect(await storedClicks(code)).toBe(40);
}, 120_000);

test("a stop with the database away past the deadline leaves every answered click in the journal, and the next start stores them", async () => {
  const app = await startApp(env);
  const code = await clickedLink(app, 37);
  await stopCluster(clusterDir);
  const started = Date.now();
  await app.stop("SIGTERM");
  // The app retried for its 8 s and the runtime exited within its 10 s hard limit.
  expect(Date.now() - started).toBeGreaterThan(7000);
  expect(Date.now() - started).toBeLessThan(12_000);
  expect(app.output()).toMatch(/37 clicks left in the click journal: the database could not be written before the stop deadline/);
  expect(app.output()).not.toMatch(/clicks lost/);
  expect(await storedClicks(code)).toBe(0);

  const next = await startApp(env); // the same DATA_DIR, so the same journal folder
  for (const deadline = Date.now() + 10_000; (await storedClicks(code)) !== 37 && Date.now() < deadline; ) await sleep(100);
  expect(await next.stop("SIGTERM")).toBe(0);
  expect(next.output()).toMatch(/stored 37 clicks from the journal of a process that stopped during a database outage/);
  expect(await storedClicks(code)).toBe(37);
}, 120_000);
