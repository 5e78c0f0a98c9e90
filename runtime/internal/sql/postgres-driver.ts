import pg from "pg";
import type { PoolStats, Row, SqlConnection, SqlDriver, SqlTransaction } from "./driver.ts";
import { asUnavailable } from "./unavailable.ts";

const { Pool, types } = pg;

// int8 (COUNT(*), bigserial) as a JavaScript number rather than pg's string: the
// counts and ids here stay far below 2^53.
export const typeParsers = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === types.builtins.INT8) return (value: string) => Number(value);
    return types.getTypeParser(oid, format);
  },
};

export interface PoolOptions {
  /** Most connections this database's pool opens. */
  readonly max: number;
  /** How long a query waits for a connection (a new one, or a free slot). */
  readonly connectTimeoutMs: number;
  /** How long one query may run; 0 for no limit. execScript has none. */
  readonly queryTimeoutMs: number;
  /** Create the database as a copy of this one when it does not exist (test runs). */
  readonly template?: string;
  /** Told when an idle connection is lost; the pool opens a new one on the next query. */
  readonly onIdleError?: (err: Error) => void;
}

const defaults: PoolOptions = { max: 10, connectTimeoutMs: 5_000, queryTimeoutMs: 30_000 };

/**
 * PostgreSQL through a node-postgres pool, one pool per database.
 *
 * Failures of the server (stopped, restarting, unreachable) never crash the
 * process and surface as Encore's 503 `unavailable`: every client has an "error"
 * listener for as long as it is out of the pool (pg emits a lost connection there,
 * and an unheard "error" event kills the process), a connection that failed is
 * destroyed rather than returned, and the pool opens new ones when the server is back.
 */
export class PostgresDriver implements SqlDriver {
  private constructor(
    private readonly pool: pg.Pool,
    private readonly name: string,
    private readonly queryTimeoutMs: number,
  ) {}

  /** The URL of database `name` on the server `serverUrl` points at (its query string kept). */
  static connectionString(serverUrl: string, name: string): string {
    const url = new URL(serverUrl);
    url.pathname = `/${encodeURIComponent(name)}`;
    return url.href;
  }

  /**
   * Connects to the database `name` on the server `serverUrl` points at,
   * creating it first when it does not exist (as Encore does for each SQLDatabase).
   */
  static async open(serverUrl: string, name: string, options: Partial<PoolOptions> = {}): Promise<PostgresDriver> {
    const opts = { ...defaults, ...options };
    await ensureDatabase(serverUrl, name, opts);
    const pool = new Pool({
      connectionString: PostgresDriver.connectionString(serverUrl, name),
      types: typeParsers,
      max: opts.max,
      connectionTimeoutMillis: opts.connectTimeoutMs,
      keepAlive: true,
    });
    pool.on("error", (err) => opts.onIdleError?.(err));
    return new PostgresDriver(pool, name, opts.queryTimeoutMs);
  }

  async query(text: string, params: readonly unknown[]): Promise<Row[]> {
    try {
      // A query that times out or fails on a broken connection ends that connection:
      // pg's pool destroys a client released with an error.
      return (await this.pool.query<Row>(this.statement(text, params))).rows;
    } catch (err) {
      throw asUnavailable(err, this.name);
    }
  }

  async execScript(sql: string): Promise<void> {
    try {
      await this.pool.query(sql);
    } catch (err) {
      throw asUnavailable(err, this.name);
    }
  }

  async begin(): Promise<SqlTransaction> {
    const session = await this.checkout();
    try {
      await session.run({ text: "BEGIN" });
    } catch (err) {
      session.release();
      throw err;
    }
    let open = true;
    const end = async (statement: "COMMIT" | "ROLLBACK") => {
      if (!open) throw new Error("transaction already finished");
      open = false;
      if (session.broken) {
        // The server aborts the transaction when the connection closes.
        session.release();
        if (statement === "COMMIT") throw asUnavailable(session.broken, this.name);
        return;
      }
      try {
        await session.run({ text: statement });
      } finally {
        session.release();
      }
    };
    return {
      query: async (text, params) => (await session.run(this.statement(text, params))).rows,
      execScript: async (sql) => void (await session.run({ text: sql })),
      commit: () => end("COMMIT"),
      rollback: () => end("ROLLBACK"),
    };
  }

  async acquire(): Promise<SqlConnection> {
    const session = await this.checkout();
    return {
      query: async (text, params) => (await session.run(this.statement(text, params))).rows,
      execScript: async (sql) => void (await session.run({ text: sql })),
      queryTable: async (text) => {
        const config = { ...this.statement(text, []), rowMode: "array", queryMode: "extended" };
        const result = (await session.run(config)) as unknown as pg.QueryArrayResult;
        return {
          columns: result.fields.map((f) => ({ name: f.name, typeOid: f.dataTypeID })),
          rows: result.rows,
          rowCount: result.rowCount,
        };
      },
      release: async () => session.release(),
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  poolStats(): PoolStats {
    const { totalCount, idleCount, waitingCount, options } = this.pool;
    return { inUse: totalCount - idleCount, idle: idleCount, waiting: waitingCount, max: options.max ?? 10 };
  }

  private statement(text: string, params: readonly unknown[]): pg.QueryConfig {
    const config: pg.QueryConfig & { query_timeout?: number } = { text, values: params as unknown[] };
    if (this.queryTimeoutMs > 0) config.query_timeout = this.queryTimeoutMs;
    return config;
  }

  /** A client out of the pool, watched for connection loss until released. */
  private async checkout(): Promise<CheckedOut> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw asUnavailable(err, this.name);
    }
    return new CheckedOut(client, this.name);
  }
}

/** A checked-out client: its failures are caught, remembered, and end the connection at release. */
class CheckedOut {
  broken: Error | undefined;
  #released = false;
  readonly #onError = (err: Error) => (this.broken ??= err);

  constructor(
    private readonly client: pg.PoolClient,
    private readonly database: string,
  ) {
    client.on("error", this.#onError);
  }

  async run(config: pg.QueryConfig): Promise<pg.QueryResult<Row>> {
    if (this.broken) throw asUnavailable(this.broken, this.database);
    try {
      return await this.client.query<Row>(config);
    } catch (err) {
      // A failed statement leaves the connection usable; a lost connection or a timed-out
      // query (still running on the server) does not.
      if (asUnavailable(err, this.database) !== err) this.broken ??= err as Error;
      throw asUnavailable(err, this.database);
    }
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.client.removeListener("error", this.#onError);
    this.client.release(this.broken ?? undefined);
  }
}

async function ensureDatabase(serverUrl: string, name: string, opts: PoolOptions): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: opts.connectTimeoutMs });
  admin.on("error", () => {}); // a failure mid-way surfaces through the query that was running
  try {
    await admin.connect();
    const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount) return;
    const from = opts.template ? ` TEMPLATE ${quoteIdent(opts.template)}` : "";
    await admin.query(`CREATE DATABASE ${quoteIdent(name)}${from}`);
  } catch (err) {
    // Another instance created it between our check and CREATE: that is success.
    const code = (err as { code?: string }).code;
    if (code !== "42P04" && code !== "23505") throw asUnavailable(err, name);
  } finally {
    await admin.end().catch(() => {});
  }
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
