// A migration added on top of the full tables: applied as the runtime applies one at
// start-up (runtime/internal/sql/migrations.ts: its SQL and its tracking row in one
// transaction, under the migrators' advisory lock), while links are looked up one at a
// time. What it costs the redirects shows as their p99 (and slowest) during it against
// before it: a migration that holds a lock a lookup waits for shows up here.
import { applyMigrations, type Migration } from "../../runtime/internal/sql/migrations.ts";
import { PostgresDriver } from "../../runtime/internal/sql/postgres-driver.ts";
import type { Phase } from "../http-client.ts";
import { percentile, timeGets } from "./timing.ts";

export interface MigrationTiming {
  readonly ms: number;
  readonly beforeP99: number;
  readonly duringP99: number;
  readonly duringMax: number;
  readonly lookups: number;
  /** Lookups answered other than 200 during the migration. */
  readonly failed: number;
}

/**
 * Applies `sql` as migration `version` of the database `database` on `serverUrl`, while
 * `pathOf(i)` is looked up one request at a time (300 before it, for the comparison, then
 * for as long as it runs).
 */
export async function timeMigration(
  client: Phase,
  baseUrl: string,
  where: { serverUrl: string; database: string },
  migration: { version: number; name: string; sql: string },
  pathOf: (i: number) => string,
): Promise<MigrationTiming> {
  const before = await timeGets(client, baseUrl, "before", 300, pathOf);
  const driver = await PostgresDriver.open(where.serverUrl, where.database, { max: 1, queryTimeoutMs: 0 });
  const file = `bench/${migration.version}_${migration.name}.up.sql`;
  const applied: Migration = { ...migration, file };
  try {
    let running = true;
    const started = performance.now();
    let finished = started;
    const applying = applyMigrations(driver, [applied]).finally(() => {
      running = false;
      finished = performance.now();
    });
    const during: number[] = [];
    let failed = 0;
    for (let i = 300; running; i++) {
      const t = performance.now();
      const res = await client.send("GET", `${baseUrl}${pathOf(i)}`);
      during.push(performance.now() - t);
      if (res.status !== 200) failed++;
    }
    if ((await applying).length !== 1) throw new Error(`${file} was not applied: the database already counts it as applied`);
    return {
      ms: finished - started,
      beforeP99: before.p99,
      duringP99: percentile(during, 99),
      duringMax: Math.max(...during),
      lookups: during.length,
      failed,
    };
  } finally {
    await driver.close();
  }
}
