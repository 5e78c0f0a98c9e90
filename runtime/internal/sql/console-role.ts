import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import type pg from "pg";

/**
 * The role the development dashboard's SQL console logs in as: never a superuser, a
 * member of pg_read_all_data (PostgreSQL 14+) and of nothing else, read-only by
 * default, with a statement timeout and small memory limits. It can read every table
 * of every database on the server, and nothing outside them: no files, no programs,
 * no other sessions (pg_read_server_files, pg_execute_server_program, pg_signal_backend
 * and superuser are what those take).
 */
export const consoleRole = "encore_console";

/** The settings its sessions start with (the console sets the timeout again in each transaction). */
export const consoleRoleSettings = {
  default_transaction_read_only: "on",
  statement_timeout: "5s",
  idle_in_transaction_session_timeout: "10s",
  lock_timeout: "2s",
  work_mem: "4MB",
} as const;

/** Settings only a superuser can set on a role: a CREATEROLE user leaves them at the server's defaults. */
const superuserSettings = { temp_file_limit: "64MB" } as const;

/** Sessions the role may hold at once: a handful of console statements, never the server's connection slots. */
export const consoleConnectionLimit = 8;

/**
 * Held (in the admin's database) while the role is set up, and while a process that
 * found its password changed sets it back and logs in: so processes holding different
 * secrets (two DATA_DIRs on one DATABASE_URL) take turns instead of failing.
 */
export const consoleRoleLock = "1701733236"; // an advisory lock key of the runtime's own

/**
 * Makes the console's role exist as described, with `password`: creates it, or puts an
 * existing one back in shape (attributes, memberships, settings). Idempotent, and safe
 * from several processes at once. Returns why it cannot, when the admin user lacks the
 * rights (neither superuser nor CREATEROLE, or not allowed to grant pg_read_all_data),
 * or the server is older than PostgreSQL 14.
 */
export async function ensureConsoleRole(admin: pg.Client, password: string, role = consoleRole): Promise<string | null> {
  const me = (
    await admin.query<{ name: string; rolsuper: boolean; rolcreaterole: boolean; version: number }>(
      `SELECT current_user AS name, rolsuper, rolcreaterole, current_setting('server_version_num')::int AS version
       FROM pg_roles WHERE rolname = current_user`,
    )
  ).rows[0]!;
  if (me.version < 140000) {
    return `its read-only role needs PostgreSQL 14 or later (pg_read_all_data); this server is ${Math.floor(me.version / 10000)}`;
  }
  if (!me.rolsuper && !me.rolcreaterole) {
    return (
      `the database user "${me.name}" is neither a superuser nor allowed to create roles (CREATEROLE), so it cannot make ` +
      `the console's read-only role "${role}"; the console never runs as the app's own user`
    );
  }
  await admin.query("BEGIN");
  try {
    await admin.query("SELECT pg_advisory_xact_lock($1)", [consoleRoleLock]);
    await shapeRole(admin, role, password, me.rolsuper);
    await admin.query("COMMIT");
    return null;
  } catch (err) {
    await admin.query("ROLLBACK").catch(() => {});
    const sqlState = (err as { code?: unknown }).code;
    if (sqlState === "42501") return `the database user "${me.name}" cannot set up the console's read-only role "${role}": ${(err as Error).message}`;
    throw err;
  }
}

async function shapeRole(admin: pg.Client, role: string, password: string, asSuperuser: boolean): Promise<void> {
  const attributes = `LOGIN INHERIT CONNECTION LIMIT ${consoleConnectionLimit} PASSWORD '${scramVerifier(password)}'`;
  const existing = (
    await admin.query<{ elevated: boolean }>(
      `SELECT rolsuper OR rolcreaterole OR rolcreatedb OR rolreplication OR rolbypassrls AS elevated FROM pg_roles WHERE rolname = $1`,
      [role],
    )
  ).rows[0];
  if (!existing) {
    await admin.query(`CREATE ROLE ${role} NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS ${attributes}`);
  } else {
    // Someone made it more than it should be: only a superuser can take that back.
    if (existing.elevated) await admin.query(`ALTER ROLE ${role} NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS`);
    await admin.query(`ALTER ROLE ${role} ${attributes}`);
  }
  const others = await admin.query<{ name: string }>(
    `SELECT m.roleid::regrole::text AS name FROM pg_auth_members m
     WHERE m.member = $1::regrole AND m.roleid <> 'pg_read_all_data'::regrole`,
    [role],
  );
  for (const { name } of others.rows) await admin.query(`REVOKE ${name} FROM ${role}`);
  await admin.query(`GRANT pg_read_all_data TO ${role}`);
  const settings = { ...consoleRoleSettings, ...(asSuperuser ? superuserSettings : {}) };
  for (const [name, value] of Object.entries(settings)) await admin.query(`ALTER ROLE ${role} SET ${name} = '${value}'`);
}

/**
 * The password as PostgreSQL stores it (SCRAM-SHA-256), so the statement that sets it
 * never carries the password itself into the server's logs.
 */
export function scramVerifier(password: string, iterations = 4096): string {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password, salt, iterations, 32, "sha256");
  const clientKey = createHmac("sha256", salted).update("Client Key").digest();
  const storedKey = createHash("sha256").update(clientKey).digest();
  const serverKey = createHmac("sha256", salted).update("Server Key").digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
}
