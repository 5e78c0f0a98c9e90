import { tmpdir } from "node:os";
import path from "node:path";
import { config } from "../config/mod.ts";
import { appMeta } from "../meta/load.ts";
import type { DatabaseMeta } from "../meta/types.ts";
import type { SqlDriver } from "./driver.ts";
import { trackInFlight } from "./in-flight.ts";
import { readDrizzleMigrations } from "./drizzle-migrations.ts";
import { applyMigrations, readMigrations, type Migration } from "./migrations.ts";
import { PGliteDriver } from "./pglite-driver.ts";
import { PostgresDriver } from "./postgres-driver.ts";

/**
 * The process's open databases, by name. Each SQLDatabase name is one database,
 * opened and migrated once, on first use (tests) or at boot (the server).
 */
const opening = new Map<string, Promise<SqlDriver>>();

export interface OpenedDatabase {
  readonly name: string;
  readonly driver: SqlDriver;
  readonly applied: readonly Migration[];
}

const opened = new Map<string, OpenedDatabase>();

/** The driver for a database, opening and migrating it the first time. */
export function openDatabase(name: string): Promise<SqlDriver> {
  let pending = opening.get(name);
  if (!pending) {
    pending = open(name);
    opening.set(name, pending);
    // A failed open is not cached, so the next query tries again.
    pending.catch(() => opening.delete(name));
  }
  return pending;
}

/**
 * The connection string of a database, known before it is open (SQLDatabase's
 * getter is synchronous). Starts opening it, and serving it to other clients;
 * boot and test setup await connectionsReady() before traffic arrives.
 */
export function connectionStringFor(name: string): string {
  const cfg = config();
  const pending = openDatabase(name).then((driver) => driver.serveConnections());
  serving.add(pending);
  pending.catch(() => {}); // reported by connectionsReady()
  return cfg.databaseUrl
    ? PostgresDriver.connectionString(cfg.databaseUrl, physicalName(name))
    : PGliteDriver.connectionString(name, socketDir(name));
}

const serving = new Set<Promise<void>>();

/** Resolves once every connection string handed out can be connected to. */
export async function connectionsReady(): Promise<void> {
  await Promise.all(serving);
}

/** Databases opened so far, for health checks and start-up logs. */
export function openedDatabases(): readonly OpenedDatabase[] {
  return [...opened.values()];
}

/** Closes every database; used at shutdown and at the end of each test file. */
export async function closeAllDatabases(): Promise<void> {
  const drivers = await Promise.allSettled(opening.values());
  opening.clear();
  opened.clear();
  serving.clear();
  await Promise.all(drivers.map((d) => (d.status === "fulfilled" ? d.value.close() : undefined)));
}

/** The server-side name of a database: the configured prefix plus its name. */
export function physicalName(name: string): string {
  return config().databaseNamePrefix + name;
}

async function open(name: string): Promise<SqlDriver> {
  const cfg = config();
  const declared = findDeclaration(name);
  const migrations = declared ? declaredMigrations(cfg.appRoot, declared) : [];
  const driver = trackInFlight(
    cfg.databaseUrl
    ? await PostgresDriver.open(cfg.databaseUrl, physicalName(name))
    : await PGliteDriver.open(
        name,
        cfg.pgliteStorage === "memory" ? null : path.join(cfg.dataDir, "pglite", name),
        socketDir(name),
      ),
  );
  try {
    const applied = await applyMigrations(driver, migrations);
    opened.set(name, { name, driver, applied });
  } catch (err) {
    await driver.close();
    throw err;
  }
  return driver;
}

/** A declared database's migrations, read by the reader for its layout (`source`). */
export function declaredMigrations(
  appRoot: string,
  declared: Pick<DatabaseMeta, "migrationsDir" | "migrationsSource">,
): Migration[] {
  if (!declared.migrationsDir) return [];
  return declared.migrationsSource === "drizzle"
    ? readDrizzleMigrations(appRoot, declared.migrationsDir)
    : readMigrations(appRoot, declared.migrationsDir);
}

// Unix socket paths are limited to ~100 bytes, so they live in the temp folder.
function socketDir(name: string): string {
  return path.join(tmpdir(), `encore-pglite-${process.pid}`, name);
}

function findDeclaration(name: string): DatabaseMeta | undefined {
  return appMeta().databases.find((d) => d.name === name);
}
