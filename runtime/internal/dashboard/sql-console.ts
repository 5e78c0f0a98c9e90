import pg from "pg";
import { APIError, withPrivateCause } from "../errors/api-error.ts";
import type { ConsoleLogin } from "../sql/console-login.ts";
import { typeParsers } from "../sql/postgres-driver.ts";
import { asUnavailable } from "../sql/unavailable.ts";
import type { QueryResult } from "./api.ts";
import { ByteMeter } from "./byte-meter.ts";
import { PortalRead, type PortalField } from "./portal-read.ts";

/** Rows the console answers at most. */
export const maxRows = 1000;
/** Bytes the console reads from the server for one statement, at most: past them the rows read so far are answered. */
export const maxBytes = 4 * 1024 * 1024;
/** How long one statement may run on the server. */
export const statementTimeoutMs = 5_000;
/**
 * How long past the statement timeout the console waits for the server's own cancel, which
 * PostgreSQL delivers at its next interrupt check. An expression it cannot interrupt (a chain
 * of numeric divisions, to_tsvector of a huge text) runs on past the timeout, for as long as
 * it takes: past this grace the console ends its session and answers, whatever the server does.
 */
const cancelGraceMs = 1_000;
/** How long logging in may take (the role put back in shape first, when another process changed it). */
const loginDeadlineMs = 15_000;
/** Statements running at once: each may hold up to maxBytes here. */
const maxRunning = 4;
const cursor = "encore_dashboard_console";
const declare = `DECLARE ${cursor} NO SCROLL CURSOR FOR `;

let running = 0;

/**
 * The dashboard's SQL console: one query, on a session of its own as the console's
 * read-only role (never the app's pool, never the app's user), closed afterwards so
 * nothing it did (locks, prepared statements, settings) outlives it. The text is only
 * ever run as `DECLARE ... CURSOR FOR <text>`, sent as one extended-protocol statement:
 * PostgreSQL itself refuses what is not a single query (several statements, EXPLAIN,
 * SHOW, writes, DDL), with its own message and position. Rows are fetched up to
 * maxRows, and bytes up to maxBytes: past either, the answer says it was cut.
 */
export async function runReadOnly(login: ConsoleLogin, database: string, sql: string): Promise<QueryResult> {
  if (sql.trim() === "") throw APIError.invalidArgument("no statement given");
  if (running >= maxRunning) throw APIError.resourceExhausted(`the console runs ${maxRunning} statements at a time; wait for one to finish`);
  running++;
  const meter = new ByteMeter(maxBytes);
  let deadline = setTimeout(() => meter.stop("deadline"), loginDeadlineMs);
  let querying = false;
  /** From the query on, the statement timeout and its grace bound the rest, login excluded. */
  const queryStarts = () => {
    clearTimeout(deadline);
    querying = true;
    deadline = setTimeout(() => meter.stop("deadline"), statementTimeoutMs + cancelGraceMs);
  };
  let client: pg.Client | null = null;
  try {
    client = await login.connect(database, {
      stream: meter.socket,
      types: typeParsers,
      connectionTimeoutMillis: loginDeadlineMs,
    });
    meter.follow(client.connection.stream);
    return await readQuery(client, meter, sql, queryStarts);
  } catch (err) {
    throw consoleError(err, meter, database, querying);
  } finally {
    running--;
    // Ending the session is what clears its state: the server releases its locks before it
    // closes the connection. The deadline still holds for a server that would not close it.
    await client?.end().catch(() => {});
    clearTimeout(deadline);
  }
}

async function readQuery(client: pg.Client, meter: ByteMeter, sql: string, queryStarts: () => void): Promise<QueryResult> {
  queryStarts();
  // The role's own defaults say the same; set again here in case the role was altered.
  await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${statementTimeoutMs}`);
  const started = performance.now();
  try {
    await client.query({ text: declare + sql, queryMode: "extended" } as pg.QueryConfig);
  } catch (err) {
    throw atUserPosition(err);
  }
  // The columns and their type names first: known even when the rows are then cut by bytes.
  const { fields } = await readPortal(client, 0);
  const types = await typeNames(client, fields);
  let rows: unknown[][];
  try {
    // One statement, under one statement timeout that nothing in the query can lift.
    rows = (await readPortal(client, maxRows + 1)).rows;
  } catch (err) {
    if (meter.cut !== "bytes" || !(err instanceof PortalError)) throw err;
    rows = err.read.rows; // the rows whole before the cut
  }
  const durationMs = performance.now() - started;
  if (meter.cut === null) await client.query("ROLLBACK");
  const shown = rows.slice(0, maxRows).map((row) => row.map(jsonValue));
  const truncatedBy = meter.cut === "bytes" ? "bytes" : rows.length > maxRows ? "rows" : null;
  return {
    columns: fields.map((f) => ({ name: f.name, type: types.get(f.dataTypeID) ?? String(f.dataTypeID) })),
    rows: shown,
    rowCount: shown.length,
    truncated: truncatedBy !== null,
    truncatedBy,
    durationMs: Math.round(durationMs * 100) / 100,
  };
}

/** A failed read of the cursor, with what it read before. */
class PortalError extends Error {
  constructor(
    readonly read: PortalRead,
    cause: unknown,
  ) {
    super((cause as Error).message, { cause });
  }
}

async function readPortal(client: pg.Client, rows: number): Promise<PortalRead> {
  const read = client.query(new PortalRead(cursor, rows, typeParsers));
  try {
    await read.done();
  } catch (err) {
    throw new PortalError(read, err);
  }
  return read;
}

async function typeNames(client: pg.Client, fields: readonly PortalField[]): Promise<Map<number, string>> {
  const oids = [...new Set(fields.map((f) => f.dataTypeID))];
  const { rows } = await client.query<{ oid: number; name: string }>(
    "SELECT oid::int AS oid, format_type(oid, NULL) AS name FROM pg_type WHERE oid = ANY($1::oid[])",
    [oids],
  );
  return new Map(rows.map((t) => [t.oid, t.name]));
}

/** PostgreSQL's error position counts from the start of the DECLARE; the developer's text starts after it. */
function atUserPosition(err: unknown): unknown {
  const e = err as { position?: string };
  const position = Number(e.position);
  if (position > 0) e.position = String(Math.max(1, position - declare.length));
  return err;
}

/** What went wrong, as the developer should read it: PostgreSQL's refusal as 400 with its message, never a 500. */
function consoleError(err: unknown, meter: ByteMeter, database: string, querying: boolean): unknown {
  if (meter.cut === "deadline" && !querying) return APIError.unavailable(`logging in to ${database} took longer than ${loginDeadlineMs / 1000} s`);
  if (meter.cut === "deadline") {
    return APIError.deadlineExceeded(
      `the query ran past the console's limit of ${statementTimeoutMs / 1000} s (PostgreSQL cannot stop some expressions at its statement timeout); the console ended its session`,
    );
  }
  if (meter.cut === "bytes") {
    return APIError.resourceExhausted(`the server's answer passed the console's limit of ${maxBytes / 1024 / 1024} MiB before any row; select fewer or shorter columns`);
  }
  if (err instanceof PortalError) err = err.cause;
  if (err instanceof APIError) return err;
  const sqlState = (err as { code?: unknown }).code;
  if (typeof sqlState === "string" && sqlState.startsWith("28")) {
    return withPrivateCause(APIError.failedPrecondition(`the SQL console could not log in as its read-only role: ${(err as Error).message}`, err as Error));
  }
  if (typeof sqlState !== "string" || !/^[0-9A-Z]{5}$/.test(sqlState) || sqlState.startsWith("08")) return asUnavailable(err, database);
  const message = (err as Error).message;
  const details = { sqlState, position: (err as { position?: string }).position ?? null };
  if (sqlState === "57014") return APIError.deadlineExceeded(`${message} (${statementTimeoutMs / 1000} s)`).withDetails(details);
  if (sqlState === "42601" && /multiple commands/.test(message)) {
    return APIError.invalidArgument(`one statement at a time: ${message}`).withDetails(details);
  }
  if (sqlState === "42601") {
    return APIError.invalidArgument(`${message} (the console runs one query: SELECT, WITH, VALUES or TABLE)`).withDetails(details);
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
