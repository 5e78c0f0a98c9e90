// API keys over HTTP, as a program uses them: created with a login token, sent as
// `Authorization: Bearer usk_…` wherever a token goes, listed without the key, revoked;
// refused when revoked, expired or of a disabled account; failed lookups limited by one
// budget over all clients (limits/api-keys.ts), which keys that worked are spared.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { users } from "~encore/clients";
import { appRoot } from "../runtime/internal/config/app-root.ts";
import { parseApp } from "../runtime/internal/parser/mod.ts";
import { apiCaller, signUpAndLogIn, type Reply } from "../runtime/test/api-client.ts";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { db as urlDb } from "../url/db";
import { db as usersDb } from "../users/db";
import { hashApiKey } from "../users/keys/api-key";

vi.hoisted(() => {
  process.env.TRUST_PROXY = "on"; // each request says its address in X-Forwarded-For, as behind a proxy; read once at start
  // One budget for the file: the tests before "guessing keys" fail 3 lookups, that one spends the rest.
  process.env.API_KEY_FAILURES_PER_MINUTE = "5";
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const call = apiCaller(() => server.url);
const invalid = { status: 401, body: { code: "unauthenticated", message: "invalid or expired token", details: null } };

let accounts = 0;
async function signedIn(): Promise<{ userID: string; email: string; token: string }> {
  const email = `key-user${++accounts}@example.com`;
  const { userID, token } = await signUpAndLogIn(call, email);
  return { userID, email, token };
}

async function newKey(token: string, body: Record<string, unknown> = { name: "a script" }): Promise<{ id: string; key: string; prefix: string }> {
  const res = await call("POST", "/me/api-keys", { token, body });
  expect(res.status).toBe(200);
  return res.body as { id: string; key: string; prefix: string };
}

const myUrls = (credential: string): Promise<Reply> => call("GET", "/me/urls", { token: credential });

describe("creating, listing and revoking", () => {
  test("the key is answered once; the list shows name, prefix and times, never the key; revoked, it leaves the list", async () => {
    const { token } = await signedIn();
    const created = await call("POST", "/me/api-keys", { token, body: { name: "deploy" } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: "deploy",
      key: expect.stringMatching(/^usk_[A-Za-z0-9_-]{43}$/),
      prefix: (created.body.key as string).slice(4, 12),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const key = created.body.key as string;

    const listed = await call("GET", "/me/api-keys", { token });
    expect(listed).toEqual({ status: 200, body: { keys: [{ id: created.body.id, name: "deploy", prefix: created.body.prefix, createdAt: created.body.createdAt }] } });
    expect(JSON.stringify(listed.body)).not.toContain(key.slice(4));

    const stored = await usersDb.queryRow<Record<string, unknown>>`SELECT * FROM api_keys WHERE id = ${created.body.id as string}::uuid`;
    expect(stored!.key_hash).toBe(hashApiKey(key)); // only its SHA-256
    expect(Object.values(stored!).map(String).join(" ")).not.toContain(key.slice(4));

    const revoked = await fetch(`${server.url}/me/api-keys/${created.body.id as string}`, { method: "DELETE", headers: { authorization: `Bearer ${token}` } });
    expect([revoked.status, await revoked.text()]).toEqual([200, ""]);
    expect((await call("GET", "/me/api-keys", { token })).body).toEqual({ keys: [] });
    expect(await myUrls(key)).toEqual(invalid); // refused from the next request
  });

  test("another user's key cannot be revoked: 404, and it goes on working", async () => {
    const [owner, other] = [await signedIn(), await signedIn()];
    const { id, key } = await newKey(owner.token);
    expect(await call("DELETE", `/me/api-keys/${id}`, { token: other.token })).toEqual({
      status: 404,
      body: { code: "not_found", message: "API key not found", details: null },
    });
    expect((await call("GET", "/me/api-keys", { token: other.token })).body).toEqual({ keys: [] });
    expect((await myUrls(key)).status).toBe(200);
  });

  test.each<[string, Record<string, unknown>]>([
    ["a name over 100 characters", { name: "n".repeat(101) }],
    ["no name", {}],
    ["an expiry in the past", { name: "k", expiresAt: "2020-01-01T00:00:00Z" }],
    ["an expiry that is not a time", { name: "k", expiresAt: "tomorrow" }],
  ])("%s is 400 invalid_argument", async (_what, body) => {
    const { token } = await signedIn();
    const res = await call("POST", "/me/api-keys", { token, body });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "invalid_argument" });
  });

  test("without credentials the endpoints are 401", async () => {
    for (const [method, path] of [["POST", "/me/api-keys"], ["GET", "/me/api-keys"], ["DELETE", "/me/api-keys/x"]] as const) {
      expect((await call(method, path, { body: method === "POST" ? { name: "k" } : undefined })).status).toBe(401);
    }
  });
});

describe("a key signs in wherever a login token does", () => {
  test("GET /me/urls, POST /shorten (recording the key's owner), and managing keys", async () => {
    const { userID, token } = await signedIn();
    const { key } = await newKey(token);
    const shortened = await call("POST", "/shorten", { token: key, body: { url: "https://by-key.example/1" } });
    expect(shortened.status).toBe(200);
    const row = await urlDb.queryRow<{ created_by: string }>`SELECT created_by FROM urls WHERE code = ${shortened.body.code as string}`;
    expect(row?.created_by).toBe(userID);
    expect((await myUrls(key)).body.urls).toEqual([expect.objectContaining({ code: shortened.body.code, originalUrl: "https://by-key.example/1" })]);

    const second = await newKey(key, { name: "made with a key" });
    expect((await call("GET", "/me/api-keys", { token: key })).body.keys).toHaveLength(2);
    expect((await myUrls(second.key)).status).toBe(200);
  });

  test("an expired key is refused, with the same message as any bad token", async () => {
    const { token } = await signedIn();
    const { key } = await newKey(token, { name: "short-lived", expiresAt: new Date(Date.now() + 1500).toISOString() });
    expect((await myUrls(key)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    expect(await myUrls(key)).toEqual(invalid);
    expect((await call("GET", "/me/api-keys", { token })).body.keys).toHaveLength(1); // listed until revoked
  });

  test("last use is shown in the list", async () => {
    const { token } = await signedIn();
    const { key } = await newKey(token);
    expect((await call("GET", "/me/api-keys", { token })).body.keys).toEqual([expect.not.objectContaining({ lastUsedAt: expect.anything() })]);
    await myUrls(key);
    expect((await call("GET", "/me/api-keys", { token })).body.keys).toEqual([expect.objectContaining({ lastUsedAt: expect.any(String) })]);
  });
});

describe("a disabled account", () => {
  test("its login token and keys are refused at once, and its login is 403 account disabled", async () => {
    const { userID, email, token } = await signedIn();
    const { key } = await newKey(token);
    await users.setAccountDisabled({ id: userID, disabled: true });
    expect(await myUrls(token)).toEqual(invalid);
    expect(await myUrls(key)).toEqual(invalid);
    expect(await call("POST", "/auth/login", { body: { email, password: "correct horse battery" } })).toEqual({
      status: 403,
      body: { code: "permission_denied", message: "account disabled", details: null },
    });
    expect((await call("POST", "/auth/login", { body: { email, password: "not the password" } })).status).toBe(401);

    await users.setAccountDisabled({ id: userID, disabled: false });
    expect((await myUrls(key)).status).toBe(200);
  });
});

test("requests behind the proxy without credentials are answered as before", async () => {
  const headers = { "x-forwarded-for": "203.0.113.60" };
  expect(await call("GET", "/me/urls", { headers })).toEqual({
    status: 401,
    body: { code: "unauthenticated", message: "endpoint requires auth but none provided", details: null },
  });
  const anonymous = await call("POST", "/shorten", { headers, body: { url: "https://anonymous.example/behind-proxy" } });
  expect(anonymous.status).toBe(200);
});

describe("the auth handler behind a proxy", () => {
  // The auth handler runs for every request that carries any of its parameters (Encore's
  // rule, and the runtime's). Behind a proxy every request carries X-Forwarded-For: had the
  // handler declared it, it would run for every request, the redirect included (2.6 times
  // fewer redirects a second, auth/gateway.ts). Authorization alone keeps it off them.
  test("declares the Authorization header and nothing else", () => {
    const { auth } = parseApp(appRoot);
    expect(auth?.params.fields).toEqual([{ name: "authorization", location: "header", wireName: "authorization", optional: false }]);
  });

  test("a GET of a link with X-Forwarded-For and no Authorization answers 200 and counts its click", async () => {
    const { code } = (await call("POST", "/shorten", { body: { url: "https://proxied.example/click" } })).body as { code: string };
    // Were the handler run, with Authorization required it could not even be given its parameters: 400.
    const res = await fetch(`${server.url}/${code}`, { headers: { "x-forwarded-for": "203.0.113.61" } });
    expect([res.status, await res.json()]).toEqual([200, { url: "https://proxied.example/click" }]);
    expect((await call("GET", `/${code}/stats`)).body).toMatchObject({ clicks: 1 });
  });
});

// Last: it spends the file's budget of failed lookups for the rest of the minute.
describe("guessing keys", () => {
  test("past API_KEY_FAILURES_PER_MINUTE failed lookups from any addresses, a new key is 429 with Retry-After; keys that worked still work", async () => {
    const { token } = await signedIn();
    const [worked, revoked, brandNew] = [await newKey(token), await newKey(token), await newKey(token)];
    for (const { key } of [worked, revoked]) expect((await myUrls(key)).status).toBe(200);
    let addresses = 0;
    const from = (credential: string, address = `198.51.100.${++addresses}`) =>
      fetch(`${server.url}/me/urls`, { headers: { authorization: `Bearer ${credential}`, "x-forwarded-for": address } });

    // Each guess from an address of its own: the budget is over all of them.
    const statuses: number[] = [];
    while (statuses.length < 6 && statuses.at(-1) !== 429) statuses.push((await from(`usk_${randomBytes(32).toString("base64url")}`)).status);
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((status) => status === 401)).toBe(true);

    const limited = await from(brandNew.key);
    expect(limited.status).toBe(429);
    const wait = Number(limited.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await limited.json()).toMatchObject({ code: "resource_exhausted", message: expect.stringMatching(/^too many failed API key attempts; /) });

    expect((await from(worked.key)).status).toBe(200);
    // Known keys are still looked up: a revocation is seen at once, past the budget too.
    expect((await call("DELETE", `/me/api-keys/${revoked.id}`, { token })).status).toBe(200);
    expect(await myUrls(revoked.key)).toEqual(invalid);
    expect((await from(token)).status).toBe(200); // login tokens are not limited
    expect((await from(`usk_${"x".repeat(42)}`)).status).toBe(401); // a malformed key costs no lookup
    expect((await from(brandNew.key)).status).toBe(429); // until the minute is over
  });
});
