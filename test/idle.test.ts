// An idle app does no work: once a request's effects have settled (its click written,
// its event published and delivered), no part of it queries a database until the next
// request. A timer that polls (an outbox sweep every 5 s, a subscriber that looks for
// messages) would show as a connection of the app's busy again within seconds.
import { rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, expect, test } from "vitest";
import { startCluster, stopCluster } from "../runtime/internal/sql/embedded/cluster.ts";
import { startApp } from "./support/app-process.ts";
import { tempDataDir } from "../runtime/vitest/temp-dir.ts";

const dataDir = tempDataDir("idle-test-");
const clusterDir = path.join(dataDir, "postgres");
const env = { DATA_DIR: dataDir, DATABASE_URL: "", DATABASE_NAME_PREFIX: "", NATS_URL: "" };
/** Longer than any interval the app could poll at unnoticed: the old outbox sweep's 5 s, twice. */
const quietSeconds = 11;

afterAll(async () => {
  await stopCluster(clusterDir);
  rmSync(dataDir, { recursive: true, force: true });
});

test(`after a request settles, none of the app's database connections is used for ${quietSeconds} s`, async () => {
  const app = await startApp(env);
  const { url } = await startCluster({ dir: clusterDir });
  const watcher = new pg.Client({ connectionString: url });
  await watcher.connect();
  try {
    const shortened = await fetch(`${app.url}/shorten`, { method: "POST", body: JSON.stringify({ url: "https://example.com/idle" }) });
    const { code } = (await shortened.json()) as { code: string };
    expect((await fetch(`${app.url}/${code}`)).status).toBe(200);

    // The app's own connections carry its name (runtime/internal/sql/embedded/session.ts).
    // Busy: not idle now, or idle for less than quietSeconds.
    const busy = async () => {
      const { rows } = await watcher.query<{ n: number; total: number }>(
        `SELECT count(*) FILTER (WHERE state IS DISTINCT FROM 'idle' OR state_change > now() - make_interval(secs => $2))::int AS n,
                count(*)::int AS total
         FROM pg_stat_activity WHERE application_name = $1`,
        [`encore-selfhost/${app.child.pid}`, quietSeconds],
      );
      return rows[0]!;
    };
    let last = await busy();
    for (const deadline = Date.now() + 45_000; last.n > 0 && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      last = await busy();
    }
    expect(last.total).toBeGreaterThan(0); // the app still holds connections: quiet, not gone
    expect(last.n).toBe(0);
  } finally {
    await watcher.end();
    await app.stop("SIGTERM");
  }
}, 90_000);
