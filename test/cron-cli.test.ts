// The operators' command, `npm run cron`, as operators run it: a child process,
// on the embedded cluster (starting it when no server runs, joining the server's
// when one does) or on PostgreSQL. Each run must remove exactly the stale rows.
import { execFile } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, test } from "vitest";
import { config } from "../runtime/internal/config/mod.ts";
import { openDatabase } from "../runtime/internal/sql/databases.ts";
import { startCluster, stopCluster } from "../runtime/internal/sql/embedded/cluster.ts";
import { PostgresDriver } from "../runtime/internal/sql/postgres-driver.ts";
import { appRoot } from "../runtime/internal/config/app-root.ts";
import { dropServerDatabases, startApp } from "./support/app-process.ts";
import { tempDataDir } from "../runtime/vitest/temp-dir.ts";

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function cron(args: string[], env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile("npm", ["run", "--silent", "cron", "--", ...args], { cwd: appRoot, env: { ...process.env, ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

// Two stale rows (91 days, no clicks) and one each of what must stay: 89 days old,
// and 91 days old but clicked once.
// One run removes the stale rows it finds.
const seed = `
  INSERT INTO urls (code, original_url, clicks, created_at) VALUES
    ('stale1', 'https://stale.example/1', 0, now() - interval '91 days'),
    ('stale2', 'https://stale.example/2', 0, now() - interval '91 days'),
    ('young1', 'https://young.example/1', 0, now() - interval '89 days'),
    ('click1', 'https://clicked.example/1', 1, now() - interval '91 days')`;
const remaining = "SELECT code FROM urls WHERE code IN ('stale1', 'stale2', 'young1', 'click1') ORDER BY code";

describe("npm run cron on the embedded cluster", () => {
  const dataDir = tempDataDir("cron-cli-");
  const clusterDir = path.join(dataDir, "postgres");
  const env = { DATA_DIR: dataDir, DATABASE_URL: "", DATABASE_NAME_PREFIX: "" };
  afterAll(async () => {
    await stopCluster(clusterDir);
    rmSync(dataDir, { recursive: true, force: true });
  });
  const serverRunning = () => existsSync(path.join(clusterDir, "pgdata", "postmaster.pid"));

  /** Runs `work` on the url database of the cluster, which must be running. */
  async function urlDatabase<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
    const { url } = await startCluster({ dir: clusterDir });
    const db = new pg.Client({ connectionString: PostgresDriver.connectionString(url, "url") });
    await db.connect();
    try {
      return await work(db);
    } finally {
      await db.end();
    }
  }

  test("alone it starts the cluster and stops it after; beside a server it joins the server's and leaves it running", async () => {
    const first = await cron(["cleanup-stale-urls"], env); // creates the cluster and the schema, nothing to remove yet
    expect(first).toMatchObject({ code: 0, stdout: expect.stringMatching(/^cleanup-stale-urls succeeded in .*\n\{"removed":0\}\n$/) });
    expect(serverRunning()).toBe(false);

    const app = await startApp(env);
    try {
      await urlDatabase((db) => db.query(seed));
      const run = await cron(["cleanup-stale-urls"], env);
      expect(run.stderr).toBe("");
      expect(run).toMatchObject({ code: 0, stdout: expect.stringContaining('{"removed":2}') });
      expect(serverRunning()).toBe(true); // the server still uses it
      expect((await fetch(`${app.url}/healthz`)).status).toBe(200);

      const list = await cron(["--list"], env);
      expect(list.code).toBe(0);
      expect(list.stdout).toMatch(/^JOB\s+SCHEDULE\s+NEXT TICK \(UTC\)\s+LAST RUN$/m);
      expect(list.stdout).toMatch(/^cleanup-stale-urls\s+0 3 \* \* \*\s+\d{4}-\d\d-\d\d 03:00\s+.*\(manual\) succeeded/m);
      expect(list.stdout).toMatch(/^daily-report\s+0 8 \* \* \*\s+\d{4}-\d\d-\d\d 08:00\s+never$/m);
      const left = await urlDatabase((db) => db.query<{ code: string }>(remaining));
      expect(left.rows.map((r) => r.code)).toEqual(["click1", "young1"]);
    } finally {
      expect(await app.stop()).toBe(0);
    }
    expect(serverRunning()).toBe(false); // the last one out stopped it
  }, 180_000); // three child processes and a server

  test("an unknown job is refused with the list of jobs", async () => {
    const run = await cron(["no-such-job"], env);
    expect(run).toMatchObject({ code: 2, stderr: expect.stringContaining("jobs: cleanup-stale-urls, daily-report, rollup-click-analytics, sweep-outbox") });
  });
});

describe("npm run cron on a PostgreSQL server", () => {
  afterAll(() => dropServerDatabases(config().databaseNamePrefix)); // the child's own: analytics, encore_cron, ...
  // The child gets this file's DATABASE_URL and DATABASE_NAME_PREFIX, so it opens the same databases.
  test("removes exactly the stale rows and records the run", async () => {
    const url = await openDatabase("url");
    await url.execScript(seed);
    const run = await cron(["cleanup-stale-urls"], {});
    expect(run).toMatchObject({ code: 0, stdout: expect.stringContaining('{"removed":2}') });
    expect((await url.query(remaining, [])).map((r) => r.code)).toEqual(["click1", "young1"]);

    const list = await cron(["--list"], {});
    expect(list.stdout).toMatch(/^cleanup-stale-urls\s+0 3 \* \* \*\s+.*\(manual\) succeeded/m);
  }, 120_000);
});
