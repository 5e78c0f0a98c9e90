import { mkdirSync } from "node:fs";
import { PGlite, type Transaction } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import type { Row, SqlConnection, SqlDriver, SqlTransaction } from "./driver.ts";

/**
 * Embedded PostgreSQL (PGlite, WebAssembly) for a database with nothing to install.
 *
 * Quirks this adapter absorbs:
 * - PGlite is one connection. A transaction or acquired connection holds PGlite's
 *   own mutex until it ends, so other queries wait rather than interleave; code that
 *   runs an outside query while holding a transaction deadlocks, as it would on a
 *   one-connection pool.
 * - It runs on the main thread, and on disk it never calls fsync: a power loss can
 *   lose recent commits. The README says so; use PostgreSQL where that matters.
 * - Other client libraries (drizzle and the like) reach it through a PostgreSQL
 *   wire-protocol server on a Unix socket, which needs no port and is known
 *   synchronously, as SQLDatabase.connectionString must be. The server accepts a
 *   pool's worth of connections (drizzle(connectionString) opens a pg.Pool of up
 *   to 10; the server's default of one refuses the second with "Too many
 *   connections") and queues their statements onto the one session, keeping a
 *   client's open transaction to that client. Statements the runtime sends
 *   directly (SQLDatabase's methods) bypass that queue, so they can run inside
 *   a socket client's open transaction: the one-session caveat above, again.
 */
export class PGliteDriver implements SqlDriver {
  readonly kind = "pglite";
  #socketServer: Promise<PGLiteSocketServer> | undefined;

  private constructor(
    private readonly db: PGlite,
    private readonly name: string,
    private readonly socketDir: string,
  ) {}

  /** The libpq-style URL of the socket serveConnections() listens on. */
  static connectionString(name: string, socketDir: string): string {
    return `postgresql://postgres@/${encodeURIComponent(name)}?host=${encodeURIComponent(socketDir)}`;
  }

  /** dataDir null keeps the database in memory. */
  static async open(name: string, dataDir: string | null, socketDir: string): Promise<PGliteDriver> {
    if (dataDir !== null) mkdirSync(dataDir, { recursive: true });
    const db = new PGlite(dataDir ?? "memory://");
    await db.waitReady;
    return new PGliteDriver(db, name, socketDir);
  }

  async query(text: string, params: readonly unknown[]): Promise<Row[]> {
    return (await this.db.query<Row>(text, params as unknown[])).rows;
  }

  async execScript(sql: string): Promise<void> {
    await this.db.exec(sql);
  }

  begin(): Promise<SqlTransaction> {
    return openTransaction(this.db);
  }

  /**
   * PGlite has exactly one session, so a "dedicated connection" is that session:
   * statements still run one at a time, and session settings are shared.
   */
  async acquire(): Promise<SqlConnection> {
    return {
      query: (text, params) => this.query(text, params),
      execScript: (sql) => this.execScript(sql),
      release: async () => {},
    };
  }

  /** Starts the wire-protocol server behind connectionString, once. */
  async serveConnections(): Promise<void> {
    this.#socketServer ??= (async () => {
      mkdirSync(this.socketDir, { recursive: true });
      const server = new PGLiteSocketServer({
        db: this.db,
        path: `${this.socketDir}/.s.PGSQL.5432`,
        maxConnections: socketConnections,
      });
      await server.start();
      return server;
    })();
    await this.#socketServer;
  }

  async close(): Promise<void> {
    const server = await this.#socketServer?.catch(() => undefined);
    await server?.stop();
    await this.db.close();
  }

  toString(): string {
    return `PGlite(${this.name})`;
  }
}

// Enough for a few pools (pg's default pool is 10) in one process.
const socketConnections = 64;

type Outcome = "commit" | "rollback";

/**
 * PGlite scopes a transaction to a callback; encore.dev's begin() hands out a
 * handle that stays open until commit or rollback. This bridges the two: the
 * callback parks until the handle is finished, and PGlite commits on return.
 */
function openTransaction(db: PGlite): Promise<PGliteTransaction> {
  return new Promise((resolveHandle, rejectHandle) => {
    let finish!: (outcome: Outcome) => void;
    const finished = new Promise<Outcome>((resolve) => (finish = resolve));
    let opened = false;
    const settled = db.transaction(async (tx) => {
      opened = true;
      resolveHandle(
        new PGliteTransaction(tx, async (outcome) => {
          finish(outcome);
          await settled; // surfaces a failed COMMIT to the caller
        }),
      );
      if ((await finished) === "rollback") await tx.rollback();
    });
    // Once opened, failures reach the caller through commit()/rollback().
    settled.catch((err: unknown) => {
      if (!opened) rejectHandle(err);
    });
  });
}

class PGliteTransaction implements SqlTransaction {
  constructor(
    private readonly tx: Transaction,
    private readonly release: (outcome: Outcome) => Promise<void>,
  ) {}

  async query(text: string, params: readonly unknown[]): Promise<Row[]> {
    return (await this.tx.query<Row>(text, params as unknown[])).rows;
  }

  async execScript(sql: string): Promise<void> {
    await this.tx.exec(sql);
  }

  commit(): Promise<void> {
    return this.release("commit");
  }

  rollback(): Promise<void> {
    return this.release("rollback");
  }
}
