// A stop while the database is away: the app keeps retrying its answered clicks and
// the runtime keeps the database open for those retries, until a deadline; past it
// the clicks still unwritten are logged as lost, with their exact number.
import { rmSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, expect, test } from "vitest";
import { startCluster, stopCluster } from "../runtime/internal/sql/embedded/cluster.ts";
import { startApp, type RunningApp } from "../runtime/test/process.ts";
import { tempDataDir } from "../runtime/test/temp-dir.ts";

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

test("a stop with the database away past the deadline logs the exact number of clicks lost", async () => {
  const app = await startApp(env);
  const code = await clickedLink(app, 37);
  await stopCluster(clusterDir);
  const started = Date.now();
  await app.stop("SIGTERM");
  // The app retried for its 8 s and the runtime exited within its 10 s hard limit.
  expect(Date.now() - started).toBeGreaterThan(7000);
  expect(Date.now() - started).toBeLessThan(12_000);
  expect(app.output()).toMatch(/37 clicks lost: the database could not be written before the stop deadline/);
  expect(await storedClicks(code)).toBe(0);
}, 120_000);
