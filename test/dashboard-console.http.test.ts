// The dashboard's SQL console against an attacker at the page: it runs as a read-only role
// of its own, on a session of its own, so it cannot reach the machine (files, programs),
// the server (its settings, other sessions) or the app's connections, nor fill the app's
// memory, nor leave anything behind. Run on the run's server: the embedded one, or
// TEST_DATABASE_URL's (a DATABASE_URL server either way, as tests see it).
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { DatabasesState, QueryResult } from "../runtime/internal/dashboard/api.ts";
import type { Dashboard } from "../runtime/internal/dashboard/server.ts";
import { config } from "../runtime/internal/config/mod.ts";
import { startPubSub } from "../runtime/internal/pubsub/mod.ts";
import { runReadOnly, statementTimeoutMs } from "../runtime/internal/dashboard/sql-console.ts";
import { ConsoleLogin } from "../runtime/internal/sql/console-login.ts";
import { consoleRole } from "../runtime/internal/sql/console-role.ts";
import { createDevCalls } from "../runtime/internal/server/runtime-routes/dev-calls.ts";
import { startTestDashboard, type TestDashboard } from "../runtime/test/dashboard.ts";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { db as urlDb } from "../url/db.ts";
import { BlackHoleProxy } from "./faults/black-hole.ts";

let app: TestServer;
let dashboard: Dashboard;
const scratch = mkdtempSync(path.join(tmpdir(), "console-test-"));
let opened: TestDashboard;
/** The cookie the link `run` prints gives its developer's browser. */
const access = (port?: number) => opened.access(port);

beforeAll(async () => {
  const devCalls = createDevCalls();
  app = await startTestServer({ devCalls });
  await startPubSub(); // the app's LISTEN connection, as the server's start makes it
  opened = await startTestDashboard(app.url, devCalls, { frontEndDir: scratch });
  dashboard = opened.dashboard;
});
afterAll(async () => {
  await dashboard.close();
  await app.close();
  rmSync(scratch, { recursive: true, force: true });
});

type Answer = QueryResult & { code?: string; message?: string; details?: { position?: string | null } };

async function sql(text: string, base = `http://127.0.0.1:${dashboard.port}`): Promise<{ status: number; body: Answer; bytes: number }> {
  const res = await fetch(`${base}/api/databases/url/query`, {
    method: "POST",
    headers: { "content-type": "application/json", ...access(Number(new URL(base).port)) },
    body: JSON.stringify({ sql: text }),
  });
  const raw = await res.text();
  return { status: res.status, body: JSON.parse(raw) as Answer, bytes: raw.length };
}

async function refused(text: string, message: string | RegExp): Promise<void> {
  const { status, body } = await sql(text);
  expect([text, status, body.code]).toEqual([text, 400, "invalid_argument"]);
  expect(body.message).toMatch(message);
}

describe("who the console is", () => {
  test("a role of its own, no superuser, a member of pg_read_all_data only, read-only, that cannot become anyone else", async () => {
    const { status, body } = await sql(
      `SELECT current_user, session_user, r.rolsuper, r.rolcreaterole, r.rolcreatedb, r.rolbypassrls, current_setting('transaction_read_only') AS ro,
              array(SELECT m.roleid::regrole::text FROM pg_auth_members m WHERE m.member = r.oid) AS member_of
       FROM pg_roles r WHERE r.rolname = current_user`,
    );
    expect(status).toBe(200);
    expect(body.rows).toEqual([["encore_console", "encore_console", false, false, false, false, "on", ["pg_read_all_data"]]]);
    await refused("SELECT set_config('role', 'postgres', false)", /permission denied to set role/);
    await refused("SELECT set_config('session_authorization', 'postgres', false)", /permission denied to set session authorization/);
  });

  test("on a DATABASE_URL server the role is made with its limits, its password kept in DATA_DIR with mode 0600", async () => {
    const roles = await urlDb.rawQueryAll(
      `SELECT r.rolcanlogin, r.rolconnlimit, s.setconfig FROM pg_roles r
       LEFT JOIN pg_db_role_setting s ON s.setrole = r.oid AND s.setdatabase = 0 WHERE r.rolname = 'encore_console'`,
    );
    expect(roles).toHaveLength(1);
    expect(roles[0]).toMatchObject({ rolcanlogin: true, rolconnlimit: 8 });
    expect(roles[0]!.setconfig).toEqual(expect.arrayContaining(["default_transaction_read_only=on", "statement_timeout=5s", "work_mem=4MB"]));
    const secret = path.join(config().dataDir, "console-password");
    expect(statSync(secret).mode & 0o777).toBe(0o600);
  });
});

describe("the machine and the server are out of reach", () => {
  test("COPY ... TO PROGRAM is refused and runs nothing", async () => {
    const marker = path.join(scratch, "copied");
    await refused(`COPY (SELECT 1) TO PROGRAM 'touch ${marker}'`, /syntax error at or near "COPY"/);
    await refused(`/* */ COPY (SELECT 1) TO PROGRAM 'touch ${marker}'`, /syntax error/);
    expect(existsSync(marker)).toBe(false);
  });

  test("the server's files, large-object import, its configuration and its log are refused", async () => {
    for (const text of [
      "SELECT pg_read_file('/etc/hostname')",
      "SELECT pg_read_binary_file('/etc/hostname')",
      "SELECT pg_ls_dir('/')",
      "SELECT pg_stat_file('/etc/hostname')",
      "SELECT lo_get(lo_import('/etc/hostname'))",
      "SELECT pg_reload_conf()",
      "SELECT pg_current_logfile()",
    ]) {
      await refused(text, /permission denied for function/);
    }
    await refused("SELECT current_setting('data_directory')", /permission denied to examine|pg_read_all_settings/);
  });

  test("the app's pub/sub LISTEN connection cannot be ended or cancelled from the console, and lives on", async () => {
    const prefix = config().databaseNamePrefix;
    const listeners = await urlDb.rawQueryAll(`SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND datname LIKE $1 || '%'`, prefix);
    expect(listeners.length).toBeGreaterThan(0);
    const pid = listeners[0]!.pid as number;
    await refused(`SELECT pg_terminate_backend(${pid})`, /permission denied to terminate|must be a superuser to terminate/);
    await refused(`SELECT pg_cancel_backend(${pid})`, /permission denied to cancel|must be a superuser to cancel/);
    expect(await urlDb.rawQueryAll("SELECT pid FROM pg_stat_activity WHERE pid = $1", pid)).toHaveLength(1);
  });

  test("writes, DDL, EXPLAIN, SHOW and SET are refused with PostgreSQL's message and the position in the text sent", async () => {
    const { body } = await sql("SELECT 1 FROM nowhere_at_all");
    expect(body.message).toContain('relation "nowhere_at_all" does not exist');
    expect(body.details?.position).toBe("15");
    for (const [text, message] of [
      ["INSERT INTO urls (code, original_url) VALUES ('cw0001', 'x')", /syntax error at or near "INSERT"/],
      ["CREATE TEMP TABLE t (id int)", /syntax error at or near "CREATE"/],
      ["EXPLAIN SELECT 1", /syntax error at or near "EXPLAIN"/],
      ["SHOW work_mem", /syntax error at or near "SHOW"/],
      ["SET work_mem = '1GB'", /syntax error at or near "SET"/],
      ["SELECT 1; SELECT 2", /one statement at a time/],
      ["SELECT nextval('urls_id_seq')", /permission denied for sequence/],
    ] as const) {
      await refused(text, message);
    }
    expect(await urlDb.rawQueryAll("SELECT 1 FROM urls WHERE code = 'cw0001'")).toEqual([]);
  });
});

describe("the answer is bounded", () => {
  test("15 rows of 20 MB each: a few MiB read, the columns and a cut the answer says, and the app's memory stays flat", async () => {
    const before = process.memoryUsage().rss;
    const { status, body, bytes } = await sql("select repeat('x', 20000000) from generate_series(1,15)");
    const grown = process.memoryUsage().rss - before;
    expect([status, body.message]).toEqual([200, undefined]);
    expect(body).toMatchObject({ columns: [{ name: "repeat", type: "text" }], rows: [], truncated: true, truncatedBy: "bytes" });
    expect(bytes).toBeLessThan(10_000);
    expect(grown).toBeLessThan(100 * 1024 * 1024);
  });

  test("rows of 100 kB: as many whole rows as fit in 4 MiB", async () => {
    const { status, body, bytes } = await sql("SELECT n, repeat('y', 100000) AS text FROM generate_series(1, 1000) AS n");
    expect(status).toBe(200);
    expect(body).toMatchObject({ truncated: true, truncatedBy: "bytes" });
    expect(body.rows.length).toBeGreaterThan(30);
    expect(body.rows.length).toBeLessThanOrEqual(42); // 4 MiB, and the rest of the last read from the socket
    expect(body.rows.every((row, i) => row[0] === i + 1 && (row[1] as string).length === 100000)).toBe(true);
    expect(bytes).toBeLessThan(4.5 * 1024 * 1024);
  });

  test("a nested comment before the query still goes through the cursor: at most 1,001 rows are ever computed", async () => {
    // Row 1,002 would divide by zero: reading past the cursor's fetch would fail the query.
    const { status, body } = await sql("/* /* */ */ SELECT n, 1 / (1002 - n) AS r FROM generate_series(1, 2000000) AS n");
    expect(status).toBe(200);
    expect(body).toMatchObject({ rowCount: 1000, truncated: true, truncatedBy: "rows" });
  });

  test("the statement timeout cannot be lifted from inside the query", async () => {
    const started = Date.now();
    const { status, body } = await sql("SELECT set_config('statement_timeout', '0', false), pg_sleep(30)");
    expect([status, body.code]).toEqual([504, "deadline_exceeded"]);
    expect(Date.now() - started).toBeLessThan(12_000);
  });
});

describe("the answer comes at the statement timeout, whatever the server does", () => {
  /** The console answers at most this long after its query starts: the timeout, a grace of 1 s, and 3 s for a busy machine. */
  const answeredWithinMs = statementTimeoutMs + 1_000 + 3_000;

  test("an expression PostgreSQL cannot interrupt, a chain of numeric divisions (seconds each on PostgreSQL 15), is answered 504 soon after 5 s, not when the server is done", async () => {
    // PostgreSQL checks for the timeout's cancel between rows, not inside one expression:
    // this one ran 15 s, to the console's old deadline, under its 5 s statement timeout.
    const divisions = Array.from({ length: 8 }, () => "x / y").join(" + ");
    const started = Date.now();
    const { status, body } = await sql(`SELECT scale(${divisions}) FROM (SELECT 10::numeric ^ 130000 - 1 AS x, 7::numeric ^ 100000 + 1 AS y) s`);
    const tookMs = Date.now() - started;
    // On a machine fast enough to finish the divisions in time there is nothing to stop.
    if (status !== 200) expect([status, body.code]).toEqual([504, "deadline_exceeded"]);
    expect(tookMs).toBeLessThan(answeredWithinMs);
  }, 30_000);

  test("a server that stops answering mid-query: 504 at the statement timeout and its grace, saying the console ended its session", async () => {
    const server = new URL(config().databaseUrl!);
    const proxy = await BlackHoleProxy.start({ host: server.hostname, port: Number(server.port || 5432) });
    try {
      server.host = `127.0.0.1:${proxy.port}`;
      // The password the dashboard's console keeps for this server: the same role, reached through the proxy.
      const login = await ConsoleLogin.prepare(server.href, path.join(config().dataDir, "console-password"));
      if (!(login instanceof ConsoleLogin)) throw new Error(login.reason);
      const started = Date.now();
      const answer = runReadOnly(login, "postgres", "SELECT pg_sleep(2) AS slept").then(
        () => null,
        (err: Error & { code?: string }) => err,
      );
      // Once the query sleeps on the server, nothing more reaches the console: not its rows, not the timeout's cancel.
      await untilTrue(async () => (await activeConsoleSleeps()) > 0);
      proxy.cut();
      const err = await answer;
      expect(err?.code).toBe("deadline_exceeded");
      expect(err?.message).toMatch(/ran past the console's limit of 5 s .*; the console ended its session/);
      expect(Date.now() - started).toBeLessThan(answeredWithinMs);
    } finally {
      await proxy.close();
    }
  }, 30_000);
});

/** Console sessions whose query is sleeping on the server now. */
async function activeConsoleSleeps(): Promise<number> {
  const admin = new pg.Client({ connectionString: config().databaseUrl! });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE usename = $1 AND state = 'active' AND wait_event = 'PgSleep'",
      [consoleRole],
    );
    return rows[0]!.n;
  } finally {
    await admin.end();
  }
}

async function untilTrue(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("the console's query never ran on the server");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("nothing is left behind", () => {
  const key = 700_000 + Math.floor(Math.random() * 100_000);

  test("an advisory lock taken in the console is held by no session afterwards", async () => {
    expect((await sql(`SELECT pg_advisory_lock(${key}), pg_try_advisory_lock(${key} + 1) AS second`)).body.rows).toEqual([["", true]]);
    const held = await urlDb.rawQueryAll("SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid IN ($1::int, $1::int + 1)", key);
    expect(held).toEqual([]);
  });

  test("no prepared statement, setting or temp table outlives a statement, on the console's sessions or the app's", async () => {
    await refused("PREPARE console_leftover AS SELECT 1", /syntax error at or near "PREPARE"/);
    expect((await sql("SELECT set_config('work_mem', '512MB', false)")).status).toBe(200);
    expect((await sql("SELECT current_setting('work_mem'), (SELECT count(*) FROM pg_prepared_statements)::int")).body.rows).toEqual([["4MB", 0]]);
    // The app's pool: every connection it holds at once is looked at.
    const seen = await Promise.all(
      Array.from({ length: 4 }, () => urlDb.rawQueryAll("SELECT current_setting('work_mem') AS w, pg_sleep(0.05), (SELECT count(*) FROM pg_prepared_statements WHERE name = 'console_leftover')::int AS p")),
    );
    for (const rows of seen) expect(rows[0]).toMatchObject({ p: 0 });
  });
});

describe("a server user that cannot create roles", () => {
  const user = `console_limited_${process.pid}`;
  let limitedUrl: string;
  let limited: Dashboard;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: config().databaseUrl! });
    await admin.connect();
    await admin.query(`CREATE ROLE ${user} LOGIN NOCREATEROLE NOSUPERUSER PASSWORD 'limited-pw'`);
    await admin.end();
    const url = new URL(config().databaseUrl!);
    [url.username, url.password] = [user, "limited-pw"];
    limitedUrl = url.href;
    ({ dashboard: limited } = await startTestDashboard(app.url, createDevCalls(), {
      secret: opened.secret,
      frontEndDir: scratch,
      consoleLogin: () => ConsoleLogin.prepare(limitedUrl, path.join(scratch, "limited-console-password")),
    }));
  });
  afterAll(async () => {
    await limited.close();
    const admin = new pg.Client({ connectionString: config().databaseUrl! });
    await admin.connect();
    await admin.query(`DROP ROLE IF EXISTS ${user}`);
    await admin.end();
  });

  test("gets the console off with its reason, in the page's state and in the query's answer", async () => {
    const base = `http://127.0.0.1:${limited.port}`;
    const state = (await (await fetch(`${base}/api/databases`, { headers: access(limited.port) })).json()) as DatabasesState;
    expect(state.console.available).toBe(false);
    const reason = state.console.available ? "" : state.console.reason;
    expect(reason).toContain(`"${user}" is neither a superuser nor allowed to create roles (CREATEROLE)`);
    const { status, body } = await sql("SELECT 1", base);
    expect([status, body.code]).toEqual([400, "failed_precondition"]);
    expect(body.message).toBe(`the SQL console is off: ${reason}`);
  });
});
