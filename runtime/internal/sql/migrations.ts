import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { SqlDriver } from "./driver.ts";
import { inTransaction } from "./transaction.ts";

export interface Migration {
  readonly version: number;
  readonly name: string;
  /** Path relative to the app root, for messages. */
  readonly file: string;
  readonly sql: string;
}

export class MigrationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MigrationError";
  }
}

// Encore's naming: a number, an underscore, a description, ".up.sql".
const upFile = /^(\d+)_([A-Za-z0-9_-]+)\.up\.sql$/;
const downFile = /^(\d+)_([A-Za-z0-9_-]+)\.down\.sql$/;

/**
 * Reads and checks a folder of plain SQL migrations (Encore's default layout):
 * sorted by version, no duplicates, no stray .sql files. drizzle-kit's layout has
 * its own reader (drizzle-migrations.ts) returning the same Migration[].
 */
export function readMigrations(appRoot: string, dir: string): Migration[] {
  const abs = path.resolve(appRoot, dir);
  let entries: string[];
  try {
    entries = readdirSync(abs);
  } catch (err) {
    throw new MigrationError(`migrations folder ${dir} cannot be read: ${(err as Error).message}`, { cause: err });
  }
  const byVersion = new Map<number, Migration>();
  for (const entry of entries) {
    if (!entry.endsWith(".sql") || downFile.test(entry)) continue;
    const file = `${dir}/${entry}`;
    const match = upFile.exec(entry);
    if (!match) {
      throw new MigrationError(
        `migration file ${file} is badly named: expected NNN_description.up.sql, such as 1_create_table.up.sql`,
      );
    }
    const version = Number(match[1]);
    const clash = byVersion.get(version);
    if (clash) throw new MigrationError(`migrations ${clash.file} and ${file} share version ${version}`);
    if (version < 1) throw new MigrationError(`migration ${file}: versions start at 1`);
    byVersion.set(version, { version, name: match[2]!, file, sql: readFileSync(path.join(abs, entry), "utf8") });
  }
  return [...byVersion.values()].sort((a, b) => a.version - b.version);
}

// Tracking as Encore does (golang-migrate's layout): one row, the latest version applied.
const createTracking = `CREATE TABLE IF NOT EXISTS schema_migrations (version bigint NOT NULL PRIMARY KEY, dirty boolean NOT NULL)`;

// Serialises migrators across instances sharing a server; released at each commit.
const lockKey = 4_242_001;

/**
 * Applies, in order, the migrations newer than the recorded version. Each runs in
 * its own transaction together with its tracking update, so a failure leaves the
 * database at the previous version with nothing half-applied.
 * Returns the migrations applied.
 */
export async function applyMigrations(driver: SqlDriver, migrations: readonly Migration[]): Promise<Migration[]> {
  // The lock is taken with execScript, which has no time limit: another instance's
  // long migration must not make this one's start-up time out.
  await inTransaction(driver, async (tx) => {
    await tx.execScript(`SELECT pg_advisory_xact_lock(${lockKey})`);
    await tx.execScript(createTracking);
  });
  const applied: Migration[] = [];
  for (const migration of migrations) {
    const ran = await inTransaction(driver, async (tx) => {
      await tx.execScript(`SELECT pg_advisory_xact_lock(${lockKey})`);
      const current = await tx.query("SELECT version, dirty FROM schema_migrations ORDER BY version DESC LIMIT 1", []);
      const row = current[0] as { version: number; dirty: boolean } | undefined;
      if (row?.dirty) {
        throw new MigrationError(
          `database is marked dirty at version ${row.version}: repair it by hand, then set dirty = false in schema_migrations`,
        );
      }
      if (row && row.version >= migration.version) return false;
      try {
        await tx.execScript(migration.sql);
      } catch (err) {
        throw new MigrationError(`migration ${migration.file} failed: ${(err as Error).message}`, { cause: err });
      }
      await tx.execScript(
        `DELETE FROM schema_migrations; INSERT INTO schema_migrations (version, dirty) VALUES (${migration.version}, false);`,
      );
      return true;
    });
    if (ran) applied.push(migration);
  }
  return applied;
}
