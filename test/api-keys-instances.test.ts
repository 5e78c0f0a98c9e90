// Two instances of the app on one database: a key revoked through one is refused by both
// from the next request, as is a key of an account disabled meanwhile, every token and
// key after a password change, and every session after signing out everywhere. Keys and accounts are looked up in the database on every
// request, so no instance holds on to one; nor does an instance need to have seen a key to
// answer it during a flood of unknown keys, right after a restart included.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startApp, startTwoInstances, type RunningApp, type TwoInstances } from "./support/app-process.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}keys_`;
const env = () => ({
  DATA_DIR: mkdtempSync(path.join(tmpdir(), "api-keys-")),
  DATABASE_NAME_PREFIX: prefix,
  NATS_URL: "",
  // One JWT key for both, as in production: a token from A is good on B.
  JWTSecret: "a shared secret for both instances, long enough",
  // Behind a load balancer: each request says its client's address in X-Forwarded-For.
  TRUST_PROXY: "on",
  // The default budget of failed key lookups, whatever the test run's environment says.
  API_KEY_FAILURES_PER_MINUTE: "600",
});
/** Each instance's environment, kept to restart it as it was. */
const envs = { a: env(), b: env() };

let a: RunningApp;
let b: RunningApp;
let sql: pg.Client;
let instances: TwoInstances | undefined;

beforeAll(async () => {
  instances = await startTwoInstances((name) => envs[name], "users");
  ({ a, b, sql } = instances);
}, 120_000);

afterAll(async () => {
  await instances?.close();
  await restarted?.stop(); // A as restarted by the last test, which close() does not know
});
let restarted: RunningApp | undefined;

async function send(
  app: RunningApp,
  method: string,
  route: string,
  credential?: string,
  body?: unknown,
  address = "203.0.113.20",
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${app.url}${route}`, {
    method,
    headers: { "x-forwarded-for": address, ...(credential ? { authorization: `Bearer ${credential}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

let accounts = 0;
/** A new account, signed in on A, with a key made on A that works on both. */
async function keyOnBoth(): Promise<{ userID: string; email: string; password: string; token: string; id: string; key: string }> {
  const email = `two-instances${++accounts}@example.com`;
  const password = "a password for both";
  const created = await send(a, "POST", "/users", undefined, { email, name: "Two", age: 30, password });
  const { token } = (await send(a, "POST", "/auth/login", undefined, { email, password })).body as { token: string };
  const { id, key } = (await send(a, "POST", "/me/api-keys", token, { name: "both" })).body as { id: string; key: string };
  expect([(await send(a, "GET", "/me/urls", key)).status, (await send(b, "GET", "/me/urls", key)).status]).toEqual([200, 200]);
  return { userID: created.body.id as string, email, password, token, id, key };
}

test("a key revoked through A is refused by A and by B on the very next request", async () => {
  const { token, id, key } = await keyOnBoth();
  expect((await send(a, "DELETE", `/me/api-keys/${id}`, token)).status).toBe(200);
  const [onA, onB] = await Promise.all([send(a, "GET", "/me/urls", key), send(b, "GET", "/me/urls", key)]);
  expect(onA).toEqual({ status: 401, body: { code: "unauthenticated", message: "invalid or expired token", details: null } });
  expect(onB).toEqual(onA);
  expect((await send(b, "GET", "/me/api-keys", token)).body).toEqual({ keys: [] });
});

test("an account disabled behind both instances' backs: its key and token are refused by both at once", async () => {
  const { userID, token, key } = await keyOnBoth();
  await sql.query("UPDATE users SET disabled_at = now() WHERE id = $1", [userID]);
  for (const app of [a, b]) {
    expect((await send(app, "GET", "/me/urls", key)).status).toBe(401);
    expect((await send(app, "GET", "/me/urls", token)).status).toBe(401);
  }
});

test("a password change through A: the old token and key are refused by A and by B at once; a login with the new password works on both", async () => {
  const { userID, email, password, token, key } = await keyOnBoth();
  const body = { email, name: "Two", age: 30, password: "the new password", currentPassword: password };
  expect((await send(a, "PUT", `/users/${userID}`, token, body)).status).toBe(200);
  const invalid = { status: 401, body: { code: "unauthenticated", message: "invalid or expired token", details: null } };
  for (const app of [a, b]) {
    expect(await send(app, "GET", "/me/urls", token)).toEqual(invalid);
    expect(await send(app, "GET", "/me/urls", key)).toEqual(invalid);
  }
  // Logged in on B at once (perhaps in the same second as the change), used on A and B.
  const login = await send(b, "POST", "/auth/login", undefined, { email, password: "the new password" });
  for (const app of [a, b]) expect((await send(app, "GET", "/me/urls", login.body.token as string)).status).toBe(200);
});

test("signing out everywhere through B: A refuses the session's login token and refresh cookie at once; the key works on both", async () => {
  const { email, password, key } = await keyOnBoth();
  const login = await fetch(`${a.url}/auth/login`, { method: "POST", headers: { "x-forwarded-for": "203.0.113.20" }, body: JSON.stringify({ email, password }) });
  const { token } = (await login.json()) as { token: string };
  const cookie = login.headers.get("set-cookie")!.split(";")[0]!;
  const refresh = (app: RunningApp) => fetch(`${app.url}/auth/refresh`, { method: "POST", headers: { cookie } }).then((res) => res.status);
  expect(await refresh(b)).toBe(200); // a session of A's login is refreshed by B

  expect((await send(b, "DELETE", "/me/sessions", token)).status).toBe(200);
  for (const app of [a, b]) {
    expect((await send(app, "GET", "/me/urls", token)).status).toBe(401);
    expect(await refresh(app)).toBe(401);
    expect((await send(app, "GET", "/me/urls", key)).status).toBe(200);
  }
});

/** 650 random well-formed keys from one address, 25 at a time, as the attack was made; the statuses answered. */
async function flood(app: RunningApp): Promise<number[]> {
  const statuses: number[] = [];
  let sent = 0;
  await Promise.all(
    Array.from({ length: 25 }, async () => {
      while (sent < 650) {
        sent += 1;
        const res = await send(app, "GET", "/me/urls", `usk_${randomBytes(32).toString("base64url")}`, undefined, "198.51.100.66");
        statuses.push(res.status);
      }
    }),
  );
  return statuses;
}

test("650 random keys from one address leave a key in force at 200 from another address, on both instances, and right after A restarts", async () => {
  const { key } = await keyOnBoth();
  const second = await keyOnBoth(); // never used on A after its restart
  const statuses = await flood(a);
  expect(statuses.every((status) => status === 401 || status === 429)).toBe(true);
  expect(statuses).toContain(429); // past the budget of 600 failures a minute
  for (const app of [a, b]) expect((await send(app, "GET", "/me/urls", key)).status).toBe(200);

  // A restart forgets whatever A held in memory; a flood right after it changes nothing.
  await a.stop();
  restarted = await startApp(envs.a);
  expect(await flood(restarted)).toContain(429);
  expect((await send(restarted, "GET", "/me/urls", second.key)).status).toBe(200);
  expect((await send(restarted, "GET", "/me/urls", key)).status).toBe(200);
  expect((await send(restarted, "GET", "/me/urls", second.key, undefined, "198.51.100.66")).status).toBe(200); // the flooding address too
}, 120_000);
