import { existsSync } from "node:fs";
import path from "node:path";
import { ConfigError, config } from "../config/mod.ts";
import { rootLogger } from "../log/root.ts";
import { appMeta } from "../meta/load.ts";
import type { DatabaseMeta } from "../meta/types.ts";
import { ConsoleLogin, type ConsoleOff } from "./console-login.ts";
import type { SqlDriver } from "./driver.ts";
import { readDrizzleMigrations } from "./drizzle-migrations.ts";
import { clusterFiles } from "./embedded/initdb.ts";
import { EmbeddedSession } from "./embedded/session.ts";
import { trackInFlight, type ClosingOptions, type TrackedDriver } from "./in-flight.ts";
import { applyMigrations, readMigrations, type Migration, type MigrationTracking } from "./migrations.ts";
import { explainOnEmbeddedServer } from "./missing-extension.ts";
import { guardUnheardPgErrors } from "./pg-error-guard.ts";
import { PostgresDriver } from "./postgres-driver.ts";
import { readPrismaMigrations } from "./prisma-migrations.ts";

/**
 * The process's PostgreSQL server and its open databases, by name. Each
 * SQLDatabase name is one database on the server, opened and migrated once, on
 * first use (tests) or at boot (the server, the commands).
 */
let embedded: Promise<EmbeddedSession> | undefined;
let embeddedUrl: string | undefined;
let embeddedPlainUrl: string | undefined;
let embeddedHome: string | undefined;

/**
 * Connects this process to its server: DATABASE_URL's, or else the embedded
 * cluster of $DATA_DIR/postgres, which is started (and created on first use)
 * or joined when another process already runs it. Call once, before opening databases.
 * Makes node-postgres's lost connections safe for the app's own clients too (pg-error-guard.ts).
 */
export async function connectServer(): Promise<void> {
  const cfg = config();
  guardUnheardPgErrors(
    (err, emitter) => rootLogger().warn({ err, emitter }, "a database connection failed with nobody listening on its client; logged, the process goes on"),
    cfg.appRoot,
  );
  if (cfg.databaseUrl) {
    serveConnectionStrings();
    return;
  }
  if (cfg.environmentType === "production") {
    // Each instance of a deployment would otherwise keep its data in its own container.
    throw new ConfigError("DATABASE_URL", "must be set in production: the embedded PostgreSQL is for development and tests");
  }
  embedded ??= EmbeddedSession.open({ dir: embeddedClusterDir(), connectTimeoutMs: cfg.sql.connectTimeoutMs });
  embedded.catch(() => (embedded = undefined));
  const session = await embedded;
  embeddedUrl = session.url;
  embeddedPlainUrl = session.plainUrl;
  embeddedHome = session.home.dir;
  const log = rootLogger();
  const { dir, movedBecause } = session.home;
  if (movedBecause) log.info({ dir }, `embedded PostgreSQL cluster in ${dir}, not in ${embeddedClusterDir()}: ${movedBecause}`);
  if (session.started) log.info({ dir }, "embedded PostgreSQL started");
  const legacy = path.join(cfg.dataDir, "pglite");
  if (existsSync(legacy)) {
    log.warn({ dir: legacy }, "found data of the earlier embedded engine (PGlite), which is no longer read; see the README's section on the embedded PostgreSQL");
  }
  serveConnectionStrings();
}

/**
 * Closes every database, then leaves the server: the embedded cluster is stopped
 * unless another process still uses it, once the app's own connections (its pools
 * on `connectionString`) have had up to `graceMs` to finish their queries and have
 * been ended (EmbeddedSession.release). Call after the last write; `closing` lets
 * an app retrying a failed write keep its database open (trackInFlight).
 */
export async function disconnectServer(graceMs = 0, closing: ClosingOptions = {}): Promise<void> {
  await closeAllDatabases(closing);
  serving = false;
  const session = await embedded?.catch(() => undefined);
  embedded = undefined;
  embeddedUrl = undefined;
  embeddedPlainUrl = undefined;
  embeddedHome = undefined;
  consoleLogin = undefined;
  const others = await session?.release(graceMs);
  if (others?.length) {
    rootLogger().info({ connections: others }, `embedded PostgreSQL left running: ${others.length} other connection(s) use it`);
  }
}

/** The embedded cluster's folder: $DATA_DIR/postgres, which under root may live elsewhere (embeddedClusterHome). */
export function embeddedClusterDir(): string {
  return path.join(config().dataDir, "postgres");
}

/** Where the embedded cluster this process is connected to lives. */
export function embeddedClusterHome(): string {
  return embeddedHome ?? embeddedClusterDir();
}

/** The server's address: `plain` for the app's clients, else the runtime's own (named for this process). */
function serverUrl(plain = false): string {
  const url = config().databaseUrl ?? (plain ? embeddedPlainUrl : embeddedUrl);
  if (!url) {
    throw new Error(
      "no PostgreSQL server: set DATABASE_URL, or run the app through the runtime's commands (npm start), which start the embedded one",
    );
  }
  return url;
}

let consoleLogin: Promise<ConsoleLogin | ConsoleOff> | undefined;

/**
 * How the development dashboard's SQL console logs in to this process's server: as a
 * read-only role of its own (console-role.ts), set up once per process on first use,
 * or why it cannot. Its password is kept next to the embedded cluster's superuser
 * password (wherever the cluster lives: embeddedClusterHome), or in DATA_DIR for a
 * DATABASE_URL server.
 */
export function sqlConsoleLogin(): Promise<ConsoleLogin | ConsoleOff> {
  if (!consoleLogin) {
    const secretFile = config().databaseUrl
      ? path.join(config().dataDir, "console-password")
      : path.join(path.dirname(clusterFiles(embeddedClusterHome()).passwordFile), "console-password");
    const pending = ConsoleLogin.prepare(serverUrl(), secretFile);
    pending.catch(() => {
      if (consoleLogin === pending) consoleLogin = undefined; // the server out of reach: try again next time
    });
    consoleLogin = pending;
  }
  return consoleLogin;
}

const opening = new Map<string, Promise<TrackedDriver>>();

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
 * Opens (creates, migrates) several databases at once, as many at a time as keep the
 * process within DATABASE_MAX_CONNECTIONS: each open holds a connection to create its
 * database while those already open keep one in their pools.
 */
export async function openDatabases(names: readonly string[]): Promise<void> {
  const atOnce = Math.max(1, config().sql.maxConnections - reservedConnections - names.length + 1);
  const queue = [...names];
  const worker = async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) await openDatabase(name);
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(atOnce, names.length) }, worker));
  const failed = results.find((r) => r.status === "rejected");
  if (failed) throw failed.reason;
}

/** The URL of a database on this process's server. */
export function databaseUrl(name: string): string {
  return PostgresDriver.connectionString(serverUrl(), physicalName(name));
}

/**
 * The connection string of a database, for other client libraries (drizzle, knex,
 * postgres.js, Prisma, Sequelize): on the embedded cluster a plain
 * postgres://user:password@127.0.0.1:port/database, with no parameters of the
 * runtime's own (DATABASE_URL's are kept: they are the user's, such as sslmode).
 * Known at once, as SQLDatabase's getter is synchronous. The database is created and
 * migrated meanwhile once this process has connected to its server (connectServer),
 * else at connectionsReady(), which boot and test setup await before traffic arrives:
 * an app module handing one out as it loads (drizzle(db.connectionString)) opens no
 * connection when it is merely imported, as under Encore.
 */
export function connectionStringFor(name: string): string {
  const url = PostgresDriver.connectionString(serverUrl(true), physicalName(name));
  if (serving) prepare(name);
  else unserved.add(name);
  return url;
}

/** Whether a connection string handed out is served (its database opened) at once. */
let serving = false;
/** Databases whose connection string was handed out before serving began. */
const unserved = new Set<string>();
const preparing = new Set<Promise<unknown>>();

function prepare(name: string): void {
  const pending = openDatabase(name);
  preparing.add(pending);
  pending.catch(() => {}); // reported by connectionsReady()
}

function serveHandedOut(): void {
  for (const name of unserved) prepare(name);
  unserved.clear();
}

/**
 * From now on a connection string is served as it is handed out, and those handed out
 * before are served now: connectServer calls it; test setup, whose server is
 * DATABASE_URL's, calls it too.
 */
export function serveConnectionStrings(): void {
  serving = true;
  serveHandedOut();
}

/** Resolves once every database whose connection string was handed out exists and is migrated. */
export async function connectionsReady(): Promise<void> {
  serveHandedOut();
  await Promise.all(preparing);
}

/** Databases opened so far, for health checks and start-up logs. */
export function openedDatabases(): readonly OpenedDatabase[] {
  return [...opened.values()];
}

/** Closes every database; used at shutdown and at the end of each test file. */
export async function closeAllDatabases(closing: ClosingOptions = {}): Promise<void> {
  const drivers = await Promise.allSettled(opening.values());
  opening.clear();
  opened.clear();
  preparing.clear();
  unserved.clear();
  await Promise.all(drivers.map((d) => (d.status === "fulfilled" ? d.value.close(closing) : undefined)));
}

/** The server-side name of a database: the configured prefix plus its name. */
export function physicalName(name: string): string {
  return config().databaseNamePrefix + name;
}

let templateOf: ((name: string) => string | undefined) | undefined;

/**
 * Test runs: databases are created as copies of templates migrated once per run,
 * so each test file starts from a fresh, migrated database in milliseconds.
 */
export function useTemplateDatabases(template: (name: string) => string | undefined): void {
  templateOf = template;
}

async function open(name: string): Promise<TrackedDriver> {
  const { appRoot, sql } = config();
  const declared = findDeclaration(name);
  const migrations = declared ? declaredMigrations(appRoot, declared) : [];
  const log = rootLogger();
  const driver = trackInFlight(
    await PostgresDriver.open(serverUrl(), physicalName(name), {
      max: poolShare(),
      connectTimeoutMs: sql.connectTimeoutMs,
      queryTimeoutMs: sql.queryTimeoutMs,
      template: templateOf?.(name),
      onIdleError: (err) => log.warn({ database: name, err: err.message }, "an idle database connection was lost; the pool opens a new one"),
    }),
  );
  try {
    const applied = await applyMigrations(driver, migrations, declared ? migrationTracking(declared) : "latest");
    opened.set(name, { name, driver, applied });
  } catch (err) {
    await driver.close();
    throw config().databaseUrl ? err : explainOnEmbeddedServer(err, "DATABASE_URL");
  }
  return driver;
}

/** Connections a process keeps apart from the pools: pub/sub's LISTEN, and its presence on the embedded cluster (or, at boot, the one that creates a database). */
const reservedConnections = 2;

/**
 * Each database's pool: an equal share of DATABASE_MAX_CONNECTIONS over every
 * database the app declares plus the runtime's own (pub/sub, cron), after the
 * connections kept apart. So the runtime of one instance never holds more than
 * DATABASE_MAX_CONNECTIONS; pools the app makes itself on `connectionString`
 * (drizzle's: node-postgres's default of 10 each) come on top. A setting too small
 * to give every database one connection stops start-up.
 */
export function poolShare(): number {
  const meta = appMeta();
  const { sql, natsUrl } = config();
  const runtimeDatabases = (meta.topics.length > 0 && !natsUrl ? 1 : 0) + (meta.cronJobs.length > 0 ? 1 : 0);
  const databases = Math.max(1, meta.databases.length + runtimeDatabases);
  const share = Math.floor((sql.maxConnections - reservedConnections) / databases);
  if (share < 1) {
    throw new ConfigError(
      "DATABASE_MAX_CONNECTIONS",
      `must be at least ${databases + reservedConnections} for this app (one connection for each of its ${databases} databases, ` +
        `and ${reservedConnections} kept apart), got ${sql.maxConnections}`,
    );
  }
  return share;
}

/** A declared database's migrations, read by the reader for its layout (`source`). */
export function declaredMigrations(
  appRoot: string,
  declared: Pick<DatabaseMeta, "migrationsDir" | "migrationsSource">,
): Migration[] {
  if (!declared.migrationsDir) return [];
  switch (declared.migrationsSource) {
    case "drizzle":
      return readDrizzleMigrations(appRoot, declared.migrationsDir);
    case "prisma":
      return readPrismaMigrations(appRoot, declared.migrationsDir);
    case "sql":
      return readMigrations(appRoot, declared.migrationsDir);
  }
}

/** How a declared database records its applied migrations: Prisma's, one row each, as Encore does. */
export function migrationTracking(declared: Pick<DatabaseMeta, "migrationsSource">): MigrationTracking {
  return declared.migrationsSource === "prisma" ? "each" : "latest";
}

function findDeclaration(name: string): DatabaseMeta | undefined {
  return appMeta().databases.find((d) => d.name === name);
}
