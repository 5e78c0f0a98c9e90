import pg from "pg";
import type { Row, SqlConnection, SqlDriver, SqlTransaction } from "./driver.ts";

const { Pool, types } = pg;

// Match PGlite's defaults so code behaves the same on both engines: int8 (COUNT(*),
// bigserial) as a JavaScript number rather than pg's string.
const typeParsers = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    if (oid === types.builtins.INT8) return (value: string) => Number(value);
    return types.getTypeParser(oid, format);
  },
};

/** PostgreSQL through a node-postgres pool: one pool per database. */
export class PostgresDriver implements SqlDriver {
  readonly kind = "postgres";

  private constructor(private readonly pool: pg.Pool) {}

  /** The URL of database `name` on the server `serverUrl` points at. */
  static connectionString(serverUrl: string, name: string): string {
    const url = new URL(serverUrl);
    url.pathname = `/${encodeURIComponent(name)}`;
    return url.href;
  }

  /**
   * Connects to the database `name` on the server `serverUrl` points at,
   * creating it first when it does not exist (as Encore does for each SQLDatabase).
   */
  static async open(serverUrl: string, name: string): Promise<PostgresDriver> {
    await ensureDatabase(serverUrl, name);
    const connectionString = PostgresDriver.connectionString(serverUrl, name);
    const pool = new Pool({ connectionString, types: typeParsers, max: 20 });
    // An idle client that loses its server (restart, failover) emits here; without a
    // listener that would crash the process. The pool replaces the client.
    pool.on("error", () => {});
    return new PostgresDriver(pool);
  }

  async query(text: string, params: readonly unknown[]): Promise<Row[]> {
    return (await this.pool.query<Row>({ text, values: params as unknown[] })).rows;
  }

  async execScript(sql: string): Promise<void> {
    await this.pool.query(sql);
  }

  async begin(): Promise<SqlTransaction> {
    const client = await this.pool.connect();
    try {
      await client.query("BEGIN");
    } catch (err) {
      client.release(err as Error);
      throw err;
    }
    let open = true;
    const end = async (statement: "COMMIT" | "ROLLBACK") => {
      if (!open) throw new Error("transaction already finished");
      open = false;
      try {
        await client.query(statement);
        client.release();
      } catch (err) {
        client.release(err as Error); // a broken connection is not returned to the pool
        throw err;
      }
    };
    return {
      query: async (text, params) => (await client.query<Row>({ text, values: params as unknown[] })).rows,
      execScript: async (sql) => void (await client.query(sql)),
      commit: () => end("COMMIT"),
      rollback: () => end("ROLLBACK"),
    };
  }

  async acquire(): Promise<SqlConnection> {
    const client = await this.pool.connect();
    return {
      query: async (text, params) => (await client.query<Row>({ text, values: params as unknown[] })).rows,
      execScript: async (sql) => void (await client.query(sql)),
      release: async () => client.release(),
    };
  }

  /** A real server is already reachable at connectionString. */
  async serveConnections(): Promise<void> {}

  async close(): Promise<void> {
    await this.pool.end();
  }
}

async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount) return;
    await admin.query(`CREATE DATABASE ${quoteIdent(name)}`);
  } catch (err) {
    // Another instance created it between our check and CREATE: that is success.
    const code = (err as { code?: string }).code;
    if (code !== "42P04" && code !== "23505") throw err;
  } finally {
    await admin.end();
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
