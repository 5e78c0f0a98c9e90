// The SQL console's role on the run's server (embedded PostgreSQL 18, or TEST_DATABASE_URL's):
// made once however many processes ask, put back in shape when someone changed it, shared
// through its secret file, and with several secrets on one server each process still logs in.
// Each test uses a role of its own name, so the dashboard tests' role is never touched.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { config } from "../config/mod.ts";
import { ConsoleLogin, type ConsoleOff } from "./console-login.ts";

const dir = mkdtempSync(path.join(tmpdir(), "console-login-"));
const made: string[] = [];
let admin: pg.Client;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: config().databaseUrl! });
  await admin.connect();
});
afterAll(async () => {
  for (const role of made) await admin.query(`DROP ROLE IF EXISTS ${role}`);
  await admin.end();
  rmSync(dir, { recursive: true, force: true });
});

function newRole(): string {
  const role = `console_t_${randomBytes(4).toString("hex")}`;
  made.push(role);
  return role;
}

function login(result: ConsoleLogin | ConsoleOff): ConsoleLogin {
  if (!(result instanceof ConsoleLogin)) throw new Error(`console off: ${result.reason}`);
  return result;
}

async function whoAmI(l: ConsoleLogin): Promise<string> {
  const client = await l.connect("postgres", {});
  try {
    return (await client.query<{ u: string }>("SELECT current_user AS u")).rows[0]!.u;
  } finally {
    await client.end();
  }
}

async function shape(role: string) {
  const { rows } = await admin.query(
    `SELECT r.rolsuper, r.rolcreatedb, r.rolcreaterole, r.rolcanlogin, r.rolconnlimit,
            array(SELECT m.roleid::regrole::text FROM pg_auth_members m WHERE m.member = r.oid ORDER BY 1) AS member_of,
            (SELECT setconfig FROM pg_db_role_setting s WHERE s.setrole = r.oid AND s.setdatabase = 0) AS settings
     FROM pg_roles r WHERE r.rolname = $1`,
    [role],
  );
  return rows;
}

describe("the console's role", () => {
  test("several processes at once make it once, share one secret file (mode 0600), and all log in", async () => {
    const role = newRole();
    const secret = path.join(dir, "shared", "console-password");
    const logins = (await Promise.all([1, 2, 3].map(() => ConsoleLogin.prepare(config().databaseUrl!, secret, role)))).map(login);
    expect(await Promise.all(logins.map(whoAmI))).toEqual([role, role, role]);
    expect(statSync(secret).mode & 0o777).toBe(0o600);
    expect(readFileSync(secret, "utf8")).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const rows = await shape(role);
    expect(rows).toEqual([expect.objectContaining({ rolsuper: false, rolcreatedb: false, rolcreaterole: false, rolcanlogin: true, rolconnlimit: 8, member_of: ["pg_read_all_data"] })]);
    expect(rows[0].settings).toEqual(
      expect.arrayContaining(["default_transaction_read_only=on", "statement_timeout=5s", "idle_in_transaction_session_timeout=10s", "work_mem=4MB", "temp_file_limit=64MB"]),
    );
  });

  test("processes with different secrets on one server each log in, in turns and at once", async () => {
    const role = newRole();
    const a = login(await ConsoleLogin.prepare(config().databaseUrl!, path.join(dir, "a"), role));
    const b = login(await ConsoleLogin.prepare(config().databaseUrl!, path.join(dir, "b"), role));
    expect(readFileSync(path.join(dir, "a"), "utf8")).not.toBe(readFileSync(path.join(dir, "b"), "utf8"));
    expect([await whoAmI(a), await whoAmI(b), await whoAmI(a)]).toEqual([role, role, role]);
    const together = await Promise.all([a, b, a, b, a, b].map(whoAmI));
    expect(together).toEqual(Array(6).fill(role));
  });

  test("made a superuser, given other roles, its limits lifted: set up again, it is put back in shape", async () => {
    const role = newRole();
    const other = newRole();
    const secret = path.join(dir, "reshaped");
    login(await ConsoleLogin.prepare(config().databaseUrl!, secret, role));
    await admin.query(`CREATE ROLE ${other}`);
    await admin.query(`ALTER ROLE ${role} SUPERUSER CREATEDB CREATEROLE CONNECTION LIMIT -1`);
    await admin.query(`GRANT ${other}, pg_write_all_data TO ${role}`);
    await admin.query(`ALTER ROLE ${role} RESET default_transaction_read_only`);
    const again = login(await ConsoleLogin.prepare(config().databaseUrl!, secret, role));
    expect(await whoAmI(again)).toBe(role);
    const rows = await shape(role);
    expect(rows).toEqual([expect.objectContaining({ rolsuper: false, rolcreatedb: false, rolcreaterole: false, rolconnlimit: 8, member_of: ["pg_read_all_data"] })]);
    expect(rows[0].settings).toContain("default_transaction_read_only=on");
  });

  test("a user with CREATEROLE only: PostgreSQL 15 lets it make the role (without temp_file_limit); 16 and later need ADMIN on pg_read_all_data, and say so", async () => {
    const creator = newRole();
    const role = newRole();
    await admin.query(`CREATE ROLE ${creator} LOGIN CREATEROLE PASSWORD 'creator-pw'`);
    const url = new URL(config().databaseUrl!);
    [url.username, url.password] = [creator, "creator-pw"];
    const result = await ConsoleLogin.prepare(url.href, path.join(dir, "creator"), role);
    const version = (await admin.query<{ v: number }>("SELECT current_setting('server_version_num')::int AS v")).rows[0]!.v;
    if (version >= 160000) {
      expect(result).toEqual({ reason: expect.stringMatching(new RegExp(`"${creator}" cannot set up the console's read-only role "${role}": permission denied to grant role "pg_read_all_data"`)) });
    } else {
      expect(await whoAmI(login(result))).toBe(role);
      const rows = await shape(role);
      expect(rows).toEqual([expect.objectContaining({ rolsuper: false, member_of: ["pg_read_all_data"] })]);
      expect(rows[0].settings).not.toContain("temp_file_limit=64MB");
    }
  });
});
