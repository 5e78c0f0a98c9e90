import { APIError } from "../errors/api-error.ts";
import type { ResultTable, SqlConnection, SqlDriver } from "../sql/driver.ts";
import type { QueryResult } from "./api.ts";

/** Rows the console answers at most. */
export const maxRows = 1000;
/** How long a statement may run. */
const statementTimeoutMs = 5_000;
const cursor = "encore_dashboard_console";

/**
 * The dashboard's SQL console: one statement, run on the database's own pool in a
 * read-only transaction that is always rolled back, under a statement timeout. PostgreSQL
 * itself refuses writes ("cannot execute INSERT in a read-only transaction"), nextval()
 * and DDL there, and a text of several statements (it is sent as a prepared statement):
 * each comes back as 400 with PostgreSQL's message. A query's rows are read through a
 * cursor, so a large table is never read past the rows shown.
 */
export async function runReadOnly(driver: SqlDriver, sql: string): Promise<QueryResult> {
  if (sql.trim() === "") throw APIError.invalidArgument("no statement given");
  const conn = await driver.acquire();
  try {
    await conn.execScript("BEGIN READ ONLY");
    await conn.execScript(`SET LOCAL statement_timeout = ${statementTimeoutMs}`);
    const started = performance.now();
    let table = returnsRows(sql) ? await throughCursor(conn, sql) : null;
    table ??= await conn.queryTable(sql);
    const durationMs = performance.now() - started;
    const oids = [...new Set(table.columns.map((c) => c.typeOid))];
    const types = await conn.query("SELECT oid::int AS oid, format_type(oid, NULL) AS name FROM pg_type WHERE oid = ANY($1::oid[])", [oids]);
    const typeName = new Map(types.map((t) => [t["oid"] as number, t["name"] as string]));
    const rows = table.rows.slice(0, maxRows).map((row) => row.map(jsonValue));
    return {
      columns: table.columns.map((c) => ({ name: c.name, type: typeName.get(c.typeOid) ?? String(c.typeOid) })),
      rows,
      rowCount: table.columns.length > 0 ? rows.length : (table.rowCount ?? 0),
      truncated: table.rows.length > maxRows,
      durationMs: Math.round(durationMs * 100) / 100,
    };
  } catch (err) {
    throw consoleError(err);
  } finally {
    await conn.execScript("ROLLBACK").catch(() => {});
    await conn.release();
  }
}

/**
 * The first rows of a query, read through a cursor; null when the cursor refuses the
 * statement (a syntax error, a data-modifying WITH), which then runs as it is, so that
 * PostgreSQL's message and error position are about the statement as written.
 */
async function throughCursor(conn: SqlConnection, sql: string): Promise<ResultTable | null> {
  await conn.execScript("SAVEPOINT before_cursor");
  try {
    await conn.queryTable(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${sql}`);
  } catch (err) {
    if (err instanceof APIError) throw err;
    await conn.execScript("ROLLBACK TO SAVEPOINT before_cursor");
    return null;
  }
  return conn.queryTable(`FETCH ${maxRows + 1} FROM ${cursor}`);
}

/** Whether the statement is a query a cursor can hold: SELECT, WITH, VALUES, TABLE (after comments and parentheses). */
function returnsRows(sql: string): boolean {
  const start = sql.replace(/^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/|\()*/, "");
  return /^(select|with|values|table)\b/i.test(start);
}

/** PostgreSQL's refusal of the statement is the user's to read: 400 with its message, never a 500. */
function consoleError(err: unknown): unknown {
  if (err instanceof APIError) return err; // the server out of reach: unavailable, as for the app's queries
  const sqlState = (err as { code?: unknown }).code;
  if (typeof sqlState !== "string" || !/^[0-9A-Z]{5}$/.test(sqlState)) return err;
  const message = (err as Error).message;
  const details = { sqlState, position: (err as { position?: string }).position ?? null };
  if (sqlState === "57014") return APIError.deadlineExceeded(`${message} (${statementTimeoutMs / 1000} s)`).withDetails(details);
  if (sqlState === "42601" && /multiple commands/.test(message)) {
    return APIError.invalidArgument(`one statement at a time: ${message}`).withDetails(details);
  }
  return APIError.invalidArgument(message).withDetails(details);
}

/** A value as JSON can carry it: bytea as "\x..." text, as psql shows it. */
function jsonValue(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return `\\x${value.toString("hex")}`;
  if (Array.isArray(value)) return value.map(jsonValue);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  return value;
}
