// The PostgreSQL server a test run uses: TEST_DATABASE_URL's, or one embedded
// cluster started for the run in a temporary folder (disposable settings: no fsync).
// Each app database, and each of the runtime's own, is migrated once into a
// template; test files then create their databases as copies of these.
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { cronMigrations, cronDatabaseName } from "../internal/cron/schema.ts";
import type { AppMeta } from "../internal/meta/types.ts";
import { pubsubDatabaseName, pubsubMigrations } from "../internal/pubsub/sql-schema.ts";
import { declaredMigrations, migrationTracking } from "../internal/sql/databases.ts";
import { startCluster, stopCluster } from "../internal/sql/embedded/cluster.ts";
import { isAlive } from "../internal/sql/embedded/postmaster.ts";
import { applyMigrations, type Migration, type MigrationTracking } from "../internal/sql/migrations.ts";
import { explainOnEmbeddedServer } from "../internal/sql/missing-extension.ts";
import { PostgresDriver } from "../internal/sql/postgres-driver.ts";
import { dropDatabases } from "./databases.ts";
import { tempDataDir } from "./temp-dir.ts";

/** What test files receive (vitest's provide/inject). */
export interface TestDatabaseServer {
  readonly url: string;
  /** The template of database `name`, when `name` is in `templates`: `${templatePrefix}${name}`. */
  readonly templatePrefix: string;
  readonly templates: readonly string[];
}

const clusterFolderPrefix = "encore-test-pg-";

/** Starts (or reaches) the run's server and makes the templates; returns them and how to clean up. */
export async function prepareTestServer(
  appRoot: string,
  meta: AppMeta,
): Promise<{ server: TestDatabaseServer; teardown: () => Promise<void> }> {
  // Read before any server is started: a migrations folder that cannot be read stops the run here.
  const templatePrefix = `tmpl_${randomBytes(3).toString("hex")}_`;
  const templates: { name: string; migrations: Migration[]; tracking?: MigrationTracking }[] = [
    ...meta.databases.map((d) => ({ name: d.name, migrations: declaredMigrations(appRoot, d), tracking: migrationTracking(d) })),
    { name: pubsubDatabaseName, migrations: pubsubMigrations },
    { name: cronDatabaseName, migrations: cronMigrations },
  ];
  const external = process.env.TEST_DATABASE_URL?.trim();
  let url: string;
  let folder: string | undefined;
  if (external) {
    await requirePostgres(external);
    url = external;
  } else {
    stopAbandonedClusters();
    folder = tempDataDir(clusterFolderPrefix);
    writeFileSync(path.join(folder, "runner.pid"), String(process.pid));
    url = (await startCluster({ dir: path.join(folder, "cluster"), durability: "disposable" })).url;
  }
  const teardown = async () => {
    if (folder) {
      await stopCluster(path.join(folder, "cluster"));
      rmSync(folder, { recursive: true, force: true });
    } else {
      await dropDatabases(url, templates.map((t) => templatePrefix + t.name));
    }
  };
  const made = await Promise.allSettled(templates.map((t) => makeTemplate(url, templatePrefix + t.name, t.migrations, t.tracking)));
  const failed = made.find((m) => m.status === "rejected");
  if (failed) {
    await teardown().catch(() => {}); // a run that cannot start leaves no cluster or template behind
    throw external ? failed.reason : explainOnEmbeddedServer(failed.reason, "TEST_DATABASE_URL");
  }
  return { server: { url, templatePrefix, templates: templates.map((t) => t.name) }, teardown };
}

async function makeTemplate(
  serverUrl: string,
  name: string,
  migrations: readonly Migration[],
  tracking: MigrationTracking = "latest",
): Promise<void> {
  const driver = await PostgresDriver.open(serverUrl, name, { max: 1 });
  try {
    await applyMigrations(driver, migrations, tracking);
  } finally {
    await driver.close(); // a template must have no connections when it is copied
  }
}

/** Clusters of earlier runs that were killed before their teardown: stopped and removed. */
function stopAbandonedClusters(): void {
  for (const entry of readdirSync(tmpdir())) {
    if (!entry.startsWith(clusterFolderPrefix)) continue;
    const folder = path.join(tmpdir(), entry);
    let runner = 0;
    try {
      runner = Number(readFileSync(path.join(folder, "runner.pid"), "utf8"));
    } catch {
      // no record: being created right now, or not ours
      continue;
    }
    if (runner && isAlive(runner)) continue;
    void stopCluster(path.join(folder, "cluster"))
      .catch(() => {})
      .finally(() => rmSync(folder, { recursive: true, force: true }));
  }
}

async function requirePostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
  } catch (err) {
    throw new Error(`TEST_DATABASE_URL=${url} is unreachable: ${(err as Error).message}`, { cause: err });
  } finally {
    await client.end().catch(() => {});
  }
}
