import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { SqlDriver, SqlQueryable } from "./driver.ts";
import { inTransaction } from "./transaction.ts";

export interface Migration {
  readonly version: number;
  readonly name: string;
  /** Path relative to the app root, for messages. */
  readonly file: string;
  readonly sql: string;
}

export class MigrationError extends Error {
  /** The migration that failed to apply, relative to the app root; absent for other failures. */
  readonly file: string | undefined;

  constructor(message: string, options?: { cause?: unknown; file?: string }) {
    super(message, options);
    this.name = "MigrationError";
    this.file = options?.file;
  }
}

// Encore's naming: a number, an underscore, a description, ".up.sql".
const upFile = /^(\d+)_([A-Za-z0-9_-]+)\.up\.sql$/;
const downFile = /^(\d+)_([A-Za-z0-9_-]+)\.down\.sql$/;

/**
 * Reads and checks a folder of plain SQL migrations (Encore's default layout):
 * sorted by version, no duplicates, no stray .sql files. drizzle-kit's layout has
 * its own reader (drizzle-migrations.ts), as has Prisma's (prisma-migrations.ts), each
 * returning the same Migration[].
 */
export function readMigrations(appRoot: string, dir: string): Migration[] {
  const { abs, entries } = readMigrationsFolder(appRoot, dir);
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

// Tracking as Encore does (golang-migrate's table): version and dirty flag per row.
const createTracking = `CREATE TABLE IF NOT EXISTS schema_migrations (version bigint NOT NULL PRIMARY KEY, dirty boolean NOT NULL)`;

/**
 * How applied migrations are recorded in schema_migrations. "latest" (numbered SQL
 * files, drizzle-kit): one row, the latest version applied, and a migration at or
 * below it counts as applied. "each" (Prisma's timestamped folders, which branches
 * add out of order): one row per applied migration, and any migration without its
 * row is applied, older ones included, as Encore's non-sequential migrator does.
 */
export type MigrationTracking = "latest" | "each";

// Serialises migrators across instances sharing a server; released at each commit.
const lockKey = 4_242_001;

/**
 * Applies, in order, the migrations not yet applied. Each runs in its own
 * transaction together with its tracking update, so a failure leaves the database
 * as it was before that migration, with nothing half-applied.
 * Returns the migrations applied.
 */
export async function applyMigrations(
  driver: SqlDriver,
  migrations: readonly Migration[],
  tracking: MigrationTracking = "latest",
): Promise<Migration[]> {
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
      if (await isApplied(tx, migration, tracking)) return false;
      try {
        await tx.execScript(migration.sql);
      } catch (err) {
        throw new MigrationError(`migration ${migration.file} failed: ${(err as Error).message}`, { cause: err, file: migration.file });
      }
      const record =
        tracking === "latest"
          ? `DELETE FROM schema_migrations; INSERT INTO schema_migrations (version, dirty) VALUES (${migration.version}, false);`
          : `INSERT INTO schema_migrations (version, dirty) VALUES (${migration.version}, false) ON CONFLICT (version) DO UPDATE SET dirty = false;`;
      await tx.execScript(record);
      return true;
    });
    if (ran) applied.push(migration);
  }
  return applied;
}

/** Whether the tracking table counts `migration` as applied; a dirty row stops the migrator. */
async function isApplied(tx: SqlQueryable, migration: Migration, tracking: MigrationTracking): Promise<boolean> {
  const dirty = (await tx.query("SELECT version FROM schema_migrations WHERE dirty ORDER BY version LIMIT 1", []))[0];
  if (dirty) {
    throw new MigrationError(
      `database is marked dirty at version ${String(dirty.version)}: repair it by hand, then set dirty = false in schema_migrations`,
    );
  }
  const found =
    tracking === "latest"
      ? await tx.query("SELECT 1 FROM schema_migrations WHERE version >= $1 LIMIT 1", [migration.version])
      : await tx.query("SELECT 1 FROM schema_migrations WHERE version = $1", [migration.version]);
  return found.length > 0;
}

/** A migrations folder's absolute path and entries; a folder that cannot be read is named in the error. */
export function readMigrationsFolder(appRoot: string, dir: string): { abs: string; entries: string[] } {
  const abs = path.resolve(appRoot, dir);
  try {
    return { abs, entries: readdirSync(abs) };
  } catch (err) {
    throw new MigrationError(`migrations folder ${dir} cannot be read: ${(err as Error).message}`, { cause: err });
  }
}
