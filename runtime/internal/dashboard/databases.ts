import type { FastifyInstance } from "fastify";
import path from "node:path";
import { APIError } from "../errors/api-error.ts";
import type { AppMeta, DatabaseMeta } from "../meta/types.ts";
import type { ConsoleLogin, ConsoleOff } from "../sql/console-login.ts";
import { declaredMigrations, migrationTracking, openDatabase, physicalName, sqlConsoleLogin } from "../sql/databases.ts";
import type { SqlDriver } from "../sql/driver.ts";
import type { DatabasesState, QueryResult } from "./api.ts";
import { maxBytes, maxRows, runReadOnly, statementTimeoutMs } from "./sql-console.ts";

type DatabaseState = DatabasesState["databases"][number];

/**
 * GET /api/databases: each database with its applied migrations and its tables (row
 * estimates from the planner's statistics, 0 for a table never analyzed; sizes with
 * indexes and TOAST).
 * POST /api/databases/:name/query {sql}: the read-only console (sql-console.ts), logged
 * in through `consoleLogin` (this process's server by default).
 */
export function registerDatabases(
  app: FastifyInstance,
  meta: AppMeta,
  appRoot: string,
  consoleLogin: () => Promise<ConsoleLogin | ConsoleOff> = sqlConsoleLogin,
): void {
  app.get("/api/databases", async (): Promise<DatabasesState> => {
    const [databases, sqlConsole] = await Promise.all([Promise.all(meta.databases.map((db) => databaseState(db, appRoot))), consoleState(consoleLogin)]);
    return { console: sqlConsole, databases };
  });

  app.post("/api/databases/:name/query", async (req): Promise<QueryResult> => {
    const db = meta.databases.find((d) => d.name === (req.params as { name: string }).name);
    if (!db) throw APIError.notFound(`no database "${(req.params as { name: string }).name}"`);
    const sql = (req.body as { sql?: unknown } | null)?.sql;
    if (typeof sql !== "string") throw APIError.invalidArgument('expected {"sql": "..."}');
    await openDatabase(db.name); // created and migrated, as the app sees it
    const login = await consoleLogin();
    if ("reason" in login) throw APIError.failedPrecondition(`the SQL console is off: ${login.reason}`);
    return runReadOnly(login, physicalName(db.name), sql);
  });
}

/** Whether the console can run, and why not: a role that could not be set up leaves the rest of the page working. */
async function consoleState(consoleLogin: () => Promise<ConsoleLogin | ConsoleOff>): Promise<DatabasesState["console"]> {
  try {
    const login = await consoleLogin();
    if ("reason" in login) return { available: false, reason: login.reason };
    return { available: true, limits: { rows: maxRows, bytes: maxBytes, statementTimeoutMs } };
  } catch (err) {
    return { available: false, reason: `its read-only role could not be set up: ${(err as Error).message}` };
  }
}

async function databaseState(db: DatabaseMeta, appRoot: string): Promise<DatabaseState> {
  const driver = await openDatabase(db.name);
  const [migrations, tables] = await Promise.all([appliedMigrations(driver, db, appRoot), listTables(driver)]);
  return { name: db.name, service: db.service, physicalName: physicalName(db.name), migrations, tables };
}

/**
 * The migrations the tracking table counts as applied, in order. It records versions
 * only (as Encore's does), not when each was applied: appliedAt is null.
 */
async function appliedMigrations(driver: SqlDriver, db: DatabaseMeta, appRoot: string): Promise<DatabaseState["migrations"]> {
  const rows = await driver.query("SELECT version FROM schema_migrations WHERE NOT dirty ORDER BY version", []);
  const versions = rows.map((r) => Number(r["version"]));
  const latest = Math.max(0, ...versions);
  const applied = migrationTracking(db) === "latest" ? (v: number) => v <= latest : (v: number) => versions.includes(v);
  return declaredMigrations(appRoot, db)
    .filter((m) => applied(m.version))
    .map((m) => ({ name: path.posix.relative(db.migrationsDir ?? "", m.file), appliedAt: null }));
}

async function listTables(driver: SqlDriver): Promise<DatabaseState["tables"]> {
  const rows = await driver.query(
    `SELECT n.nspname AS schema, c.relname AS name, GREATEST(c.reltuples, 0)::float8 AS row_estimate,
            pg_total_relation_size(c.oid) AS size_bytes
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p') AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg_toast%'
     ORDER BY 1, 2`,
    [],
  );
  return rows.map((r) => ({
    schema: r["schema"] as string,
    name: r["name"] as string,
    rowEstimate: Math.round(r["row_estimate"] as number),
    sizeBytes: Number(r["size_bytes"]),
  }));
}
