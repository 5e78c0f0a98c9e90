// Two instances of the app on one database: a key revoked through one is refused by both
// from the next request, as is a key of an account disabled meanwhile. Keys are looked up
// in the database on every request, so no instance holds on to one.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTwoInstances, type RunningApp, type TwoInstances } from "../runtime/test/process.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}keys_`;
const env = () => ({
  DATA_DIR: mkdtempSync(path.join(tmpdir(), "api-keys-")),
  DATABASE_NAME_PREFIX: prefix,
  NATS_URL: "",
  // One JWT key for both, as in production: a token from A is good on B.
  JWTSecret: "a shared secret for both instances, long enough",
});

let a: RunningApp;
let b: RunningApp;
let sql: pg.Client;
let instances: TwoInstances | undefined;

beforeAll(async () => {
  instances = await startTwoInstances(env, "users");
  ({ a, b, sql } = instances);
}, 120_000);

afterAll(() => instances?.close());

async function send(app: RunningApp, method: string, route: string, credential?: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${app.url}${route}`, {
    method,
    headers: credential ? { authorization: `Bearer ${credential}` } : {},
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

let accounts = 0;
/** A new account, signed in on A, with a key made on A that works on both. */
async function keyOnBoth(): Promise<{ userID: string; token: string; id: string; key: string }> {
  const email = `two-instances${++accounts}@example.com`;
  const password = "a password for both";
  const created = await send(a, "POST", "/users", undefined, { email, name: "Two", age: 30, password });
  const { token } = (await send(a, "POST", "/auth/login", undefined, { email, password })).body as { token: string };
  const { id, key } = (await send(a, "POST", "/me/api-keys", token, { name: "both" })).body as { id: string; key: string };
  expect([(await send(a, "GET", "/me/urls", key)).status, (await send(b, "GET", "/me/urls", key)).status]).toEqual([200, 200]);
  return { userID: created.body.id as string, token, id, key };
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
