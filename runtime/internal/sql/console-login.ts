import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { APIError } from "../errors/api-error.ts";
import { consoleRole, consoleRoleLock, ensureConsoleRole } from "./console-role.ts";

/** Why the console cannot run on this server, said to the developer. */
export interface ConsoleOff {
  readonly reason: string;
}

/** Connection settings the console chooses itself (its socket, type parsers, timeouts). */
export type ConsoleClientConfig = Omit<pg.ClientConfig, "connectionString" | "user" | "password" | "database">;

/**
 * How the SQL console logs in: as its own role (console-role.ts), with a password kept in
 * `secretFile` (mode 0600), shared by every process that uses the same file (`run`, a
 * `cron` command on the same data folder). Processes with another secret (another
 * DATA_DIR on the same DATABASE_URL) set their own password when they find it changed.
 */
export class ConsoleLogin {
  private constructor(
    private readonly adminUrl: string,
    private readonly password: string,
    /** The role's name: consoleRole, but for tests of the role itself. */
    private readonly role: string,
  ) {}

  /**
   * Sets up the role on the server `adminUrl` reaches (as its user: a superuser, or a
   * user with CREATEROLE); when that user cannot, says why instead.
   */
  static async prepare(adminUrl: string, secretFile: string, role = consoleRole): Promise<ConsoleLogin | ConsoleOff> {
    const password = readOrCreateSecret(secretFile);
    const reason = await asAdmin(adminUrl, (admin) => ensureConsoleRole(admin, password, role));
    return reason === null ? new ConsoleLogin(adminUrl, password, role) : { reason };
  }

  /** A new session of the console's role on `database` (its name on the server). */
  async connect(database: string, config: ConsoleClientConfig): Promise<pg.Client> {
    try {
      return await this.open(database, config);
    } catch (err) {
      if (!loginRefused(err)) throw err;
    }
    // Another process set its own password (or dropped the role): set ours, and log in
    // before any other process may change it again.
    return asAdmin(this.adminUrl, async (admin) => {
      await admin.query("SELECT pg_advisory_lock($1)", [consoleRoleLock]); // released when the session ends
      const reason = await ensureConsoleRole(admin, this.password, this.role);
      if (reason !== null) throw APIError.failedPrecondition(`the SQL console cannot log in: ${reason}`);
      return this.open(database, config);
    });
  }

  private async open(database: string, config: ConsoleClientConfig): Promise<pg.Client> {
    const client = new pg.Client({ ...config, connectionString: roleUrl(this.adminUrl, this.role, this.password, database) });
    client.on("error", () => {}); // a session lost between statements: the next statement reports it
    try {
      await client.connect();
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
    return client;
  }
}

/** The admin's URL, on `database`, as the console's role: the server's address and its parameters (sslmode, application_name) kept. */
function roleUrl(adminUrl: string, role: string, password: string, database: string): string {
  const url = new URL(adminUrl);
  url.username = role;
  url.password = password;
  url.pathname = `/${encodeURIComponent(database)}`;
  url.searchParams.delete("user");
  url.searchParams.delete("password");
  return url.href;
}

/** A wrong password (28P01), or no such role any more (28000). */
function loginRefused(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === "28P01" || code === "28000";
}

/** How long the admin's session may wait for the server, a lock or a statement: a console request never hangs on it. */
const adminTimeoutMs = 10_000;

async function asAdmin<T>(adminUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: adminTimeoutMs, statement_timeout: adminTimeoutMs });
  admin.on("error", () => {}); // reported by the query that was running
  try {
    await admin.connect();
    return await work(admin);
  } finally {
    await admin.end().catch(() => {});
  }
}

/**
 * The secret in `file`, made on first use: written whole to a file of its own, then
 * linked into place, so that of two processes making it at once one wins and both
 * read the same secret, never a half-written one.
 */
export function readOrCreateSecret(file: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  mkdirSync(path.dirname(file), { recursive: true });
  const staged = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(staged, randomBytes(24).toString("base64url"), { mode: 0o600 });
  try {
    linkSync(staged, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    rmSync(staged, { force: true });
  }
  return readFileSync(file, "utf8").trim();
}
