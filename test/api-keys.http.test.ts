// API keys over HTTP, as a program uses them: created with a login token, sent as
// `Authorization: Bearer usk_…` or `X-API-Key: usk_…`, listed without the key, revoked;
// refused when revoked, expired or of a disabled account; allowed what their scopes say
// and never the account or administration (access/scopes.ts); looked up first, so a key in
// force is answered whatever other clients send (limits/api-keys.ts).
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { users } from "~encore/clients";
import { appRoot } from "../runtime/internal/config/app-root.ts";
import { parseApp } from "../runtime/internal/parser/mod.ts";
import { apiCaller, signUpAndLogIn, type Reply } from "./support/api-client.ts";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { db as urlDb } from "../url/db";
import { db as usersDb } from "../users/db";
import { hashApiKey } from "../access/api-key";

vi.hoisted(() => {
  process.env.TRUST_PROXY = "on"; // each request says its address in X-Forwarded-For, as behind a proxy; read once at start
  // One budget for the file: the tests before "guessing keys" fail 3 lookups, that one spends the rest.
  process.env.API_KEY_FAILURES_PER_MINUTE = "5";
  process.env.ADMIN_EMAILS = "key-admin@example.com";
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
      scopes: ["links:read", "links:write", "analytics:read"],
      // The personal workspace, whose id is the account's.
      workspaceId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const key = created.body.key as string;

    const listed = await call("GET", "/me/api-keys", { token });
    expect(listed).toEqual({
      status: 200,
      body: { keys: [{ id: created.body.id, name: "deploy", prefix: created.body.prefix, scopes: created.body.scopes, workspaceId: created.body.workspaceId, createdAt: created.body.createdAt }] },
    });
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
    ["no scope", { name: "k", scopes: [] }],
    ["a scope that does not exist", { name: "k", scopes: ["links:read", "admin"] }],
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

describe("a key signs in for links and analytics", () => {
  test("GET /me/urls and POST /shorten (recording the key's owner), by Authorization or by X-API-Key", async () => {
    const { userID, token } = await signedIn();
    const { key } = await newKey(token);
    const shortened = await call("POST", "/shorten", { token: key, body: { url: "https://by-key.example/1" } });
    expect(shortened.status).toBe(200);
    const row = await urlDb.queryRow<{ created_by: string }>`SELECT created_by FROM urls WHERE code = ${shortened.body.code as string}`;
    expect(row?.created_by).toBe(userID);
    expect((await myUrls(key)).body.urls).toEqual([expect.objectContaining({ code: shortened.body.code, originalUrl: "https://by-key.example/1" })]);

    const viaHeader = await call("POST", "/shorten", { headers: { "x-api-key": key }, body: { url: "https://by-key.example/2" } });
    expect(viaHeader.status).toBe(200);
    const second = await urlDb.queryRow<{ created_by: string }>`SELECT created_by FROM urls WHERE code = ${viaHeader.body.code as string}`;
    expect(second?.created_by).toBe(userID);
    expect((await call("GET", "/me/urls", { headers: { "x-api-key": key } })).body.urls).toHaveLength(2);
    expect(await call("GET", "/me/urls", { headers: { "x-api-key": token } })).toEqual(invalid); // a login token is no key
    expect(await call("GET", "/me/urls", { token, headers: { "x-api-key": key } })).toEqual({
      status: 400,
      body: { code: "invalid_argument", message: "send a credential in Authorization or in X-API-Key, not both", details: null },
    });
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
  test("its login token and keys are refused at once and for good, and its login is 403 account disabled", async () => {
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
    // Enabled again, what was issued before the disabling stays ended; a new login works.
    expect(await myUrls(key)).toEqual(invalid);
    expect(await myUrls(token)).toEqual(invalid);
    const again = await call("POST", "/auth/login", { body: { email, password: "correct horse battery" } });
    expect((await myUrls(again.body.token as string)).status).toBe(200);
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
  test("declares the Authorization and X-API-Key headers and nothing else", () => {
    const { auth } = parseApp(appRoot);
    expect(auth?.params.fields).toEqual([
      { name: "authorization", location: "header", wireName: "authorization", optional: true },
      { name: "apiKey", location: "header", wireName: "x-api-key", optional: true },
    ]);
  }, 120_000); // a TypeScript program of the whole app: 5–20 s, longer on a busy machine

  test("a GET of a link with X-Forwarded-For and no Authorization answers 200 and counts its click", async () => {
    const { code } = (await call("POST", "/shorten", { body: { url: "https://proxied.example/click" } })).body as { code: string };
    // Were the handler run, with Authorization required it could not even be given its parameters: 400.
    const res = await fetch(`${server.url}/${code}`, { headers: { "x-forwarded-for": "203.0.113.61" } });
    expect([res.status, await res.json()]).toEqual([200, { url: "https://proxied.example/click" }]);
    expect((await call("GET", `/${code}/stats`)).body).toMatchObject({ clicks: 1 });
  });
});

describe("what a key may do", () => {
  const scoped = async (scopes: string[]) => {
    const { token } = await signedIn();
    const { code } = (await call("POST", "/shorten", { token, body: { url: "https://scoped.example/a" } })).body as { code: string };
    return { token, code, key: (await newKey(token, { name: scopes.join(" ") || "none", scopes })).key };
  };
  // Each endpoint a key reaches, with the scope it needs.
  const needs: Array<[string, string, (code: string) => [string, string, unknown?]]> = [
    ["links:read", "GET /me/urls", () => ["GET", "/me/urls"]],
    ["links:read", "GET /links", () => ["GET", "/links"]],
    ["links:read", "GET /links/:code", (code) => ["GET", `/links/${code}`]],
    ["links:write", "POST /shorten", () => ["POST", "/shorten", { url: "https://scoped.example/b" }]],
    ["links:write", "POST /url", () => ["POST", "/url", { url: "https://scoped.example/c" }]],
    ["links:write", "POST /links/bulk", () => ["POST", "/links/bulk", { items: [{ url: "https://scoped.example/d" }] }]],
    ["links:write", "PATCH /links/:code", (code) => ["PATCH", `/links/${code}`, { title: "changed" }]],
    ["analytics:read", "GET /:code/analytics", (code) => ["GET", `/${code}/analytics`]],
    ["analytics:read", "GET /me/clicks", () => ["GET", "/me/clicks"]],
  ];

  test.each(needs)("%s: %s is 403 to a key without it and 200 to one with it", async (scope, _endpoint, request) => {
    const others = ["links:read", "links:write", "analytics:read"].filter((s) => s !== scope);
    const without = await scoped(others);
    const [method, path, body] = request(without.code);
    expect(await call(method, path, { token: without.key, body })).toEqual({
      status: 403,
      body: { code: "permission_denied", message: `this API key lacks the ${scope} scope: create a key with it to do this`, details: null },
    });
    const withIt = await scoped([scope]);
    const [method2, path2, body2] = request(withIt.code);
    expect((await call(method2, path2, { token: withIt.key, body: body2 })).status).toBe(200);
  });

  test("a password link's stats: its owner's key with links:read sees them, one without it is asked the password like anyone", async () => {
    const { token } = await signedIn();
    const created = await call("POST", "/shorten", { token, body: { url: "https://scoped.example/hidden", password: "open sesame" } });
    const { code } = created.body as { code: string };
    const reader = (await newKey(token, { name: "reader", scopes: ["links:read"] })).key;
    expect(await call("GET", `/${code}/stats`, { token: reader })).toMatchObject({ status: 200, body: { originalUrl: "https://scoped.example/hidden" } });
    const writer = (await newKey(token, { name: "writer", scopes: ["links:write", "analytics:read"] })).key;
    const refused = await call("GET", `/${code}/stats`, { token: writer });
    expect(refused).toMatchObject({ status: 401, body: { code: "unauthenticated" } });
    expect(JSON.stringify(refused.body)).not.toContain("scoped.example");
  });

  test("links:write: DELETE /links/:code is 403 without it and 200 with it", async () => {
    const reader = await scoped(["links:read"]);
    expect(await call("DELETE", `/links/${reader.code}`, { token: reader.key })).toMatchObject({ status: 403, body: { code: "permission_denied" } });
    const writer = await scoped(["links:write"]);
    expect((await call("DELETE", `/links/${writer.code}`, { token: writer.key })).status).toBe(200);
  });

  test("a key with every scope is 403 on managing keys and the account, whatever it sends", async () => {
    const { userID, token } = await signedIn();
    const { id, key } = await newKey(token);
    const keysRefusal = "an API key cannot manage API keys: sign in with the account's password to do this";
    const requests: Array<[string, string, unknown, string]> = [
      ["POST", "/me/api-keys", { name: "made with a key" }, keysRefusal],
      ["GET", "/me/api-keys", undefined, keysRefusal],
      ["DELETE", `/me/api-keys/${id}`, undefined, keysRefusal],
      ["GET", `/users/${userID}`, undefined, "an API key cannot read the account: sign in with the account's password to do this"],
      ["GET", "/users", undefined, "an API key cannot read the account: sign in with the account's password to do this"],
      [
        "PUT",
        `/users/${userID}`,
        { email: "taken-over@example.com", name: "Mallory", age: 30, password: "the thief's password", currentPassword: "correct horse battery" },
        "an API key cannot change the account: sign in with the account's password to do this",
      ],
      ["DELETE", `/users/${userID}`, undefined, "an API key cannot delete the account: sign in with the account's password to do this"],
      ["GET", "/checkout/summary", undefined, "an API key cannot place or read orders: sign in with the account's password to do this"],
    ];
    for (const [method, path, body, message] of requests) {
      const headers = method === "DELETE" && path.startsWith("/users/") ? { "x-current-password": "correct horse battery" } : undefined;
      expect([method, path, await call(method, path, { token: key, body, headers })]).toEqual([
        method,
        path,
        { status: 403, body: { code: "permission_denied", message, details: null } },
      ]);
    }
    // Nothing changed: the key and the account are as they were, the old password still signs in.
    expect((await call("GET", "/me/api-keys", { token })).body.keys).toHaveLength(1);
    expect((await call("GET", `/users/${userID}`, { token })).body).toMatchObject({ name: "Ada" });
  });

  test("an administrator's key is 403 on /admin/ paths, where the administrator's login token is 200", async () => {
    const { userID, token } = await signUpAndLogIn(call, "key-admin-to-be@example.com");
    // Made an admin as an operator does: the account first, then its email listed (ADMIN_EMAILS).
    await usersDb.exec`UPDATE users SET email = 'key-admin@example.com' WHERE id = ${userID}::uuid`;
    const { key } = await newKey(token);
    expect((await call("GET", "/admin/actions", { token })).status).toBe(200);
    const refusal = { status: 403, body: { code: "permission_denied", message: "an API key cannot act as an administrator: sign in with the account's password to do this", details: null } };
    expect(await call("GET", "/admin/actions", { token: key })).toEqual(refusal);
    expect(await call("GET", "/admin/hosts", { token: key })).toEqual(refusal);
    expect(await call("POST", "/admin/hosts", { token: key, body: { host: "banned-by-key.example" } })).toEqual(refusal);
    expect(await call("POST", `/admin/users/${userID}/disable`, { token: key, body: {} })).toEqual(refusal);
  });
});

describe("the account's own changes", () => {
  test("a new email, a new password and deleting the account ask for the current password: 400 without, 403 when wrong", async () => {
    const { userID, email, token } = await signedIn();
    const profile = { email, name: "Ada", age: 36 };
    const missing = (action: string) => ({ status: 400, body: { code: "invalid_argument", message: `currentPassword is required to ${action}`, details: null } });
    const wrong = { status: 403, body: { code: "permission_denied", message: "the current password is wrong", details: null } };
    expect(await call("PUT", `/users/${userID}`, { token, body: { ...profile, email: "moved@example.com" } })).toEqual(missing("change the email"));
    expect(await call("PUT", `/users/${userID}`, { token, body: { ...profile, password: "a new password" } })).toEqual(missing("change the password"));
    expect(await call("PUT", `/users/${userID}`, { token, body: { ...profile, password: "a new password", currentPassword: "not it at all" } })).toEqual(wrong);
    expect(await call("DELETE", `/users/${userID}`, { token })).toEqual(missing("delete the account"));
    expect(await call("DELETE", `/users/${userID}`, { token, headers: { "x-current-password": "not it at all" } })).toEqual(wrong);
    expect((await call("PUT", `/users/${userID}`, { token, body: { ...profile, name: "Ada L." } })).status).toBe(200); // no new email or password
    expect((await call("DELETE", `/users/${userID}`, { token, headers: { "x-current-password": "correct horse battery" } })).status).toBe(200);
    expect(await myUrls(token)).toEqual(invalid);
  });

  test("a password change ends the token and keys issued before it, at once; a login with the new password works", async () => {
    const { userID, email, token } = await signedIn();
    const { key } = await newKey(token);
    const changed = await call("PUT", `/users/${userID}`, {
      token,
      body: { email, name: "Ada", age: 36, password: "a brand new password", currentPassword: "correct horse battery" },
    });
    expect(changed.status).toBe(200);
    // The login right after may fall in the same second as the change: it must work all the same.
    const fresh = await call("POST", "/auth/login", { body: { email, password: "a brand new password" } });
    expect(await myUrls(token)).toEqual(invalid);
    expect(await myUrls(key)).toEqual(invalid);
    expect((await call("GET", "/me/api-keys", { token: fresh.body.token as string })).body).toEqual({ keys: [] }); // revoked
    expect((await myUrls(fresh.body.token as string)).status).toBe(200);
    expect((await call("POST", "/auth/login", { body: { email, password: "correct horse battery" } })).status).toBe(401);
  });
});

// Last: it spends the file's budget of failed lookups for the rest of the minute.
describe("a flood of unknown keys", () => {
  test("650 random well-formed keys from one address leave every key in force answering 200, a never-used one too, from any address", async () => {
    const { token } = await signedIn();
    const [worked, revoked, brandNew] = [await newKey(token), await newKey(token), await newKey(token)];
    for (const { key } of [worked, revoked]) expect((await myUrls(key)).status).toBe(200);
    const from = (address: string, headers: Record<string, string>) =>
      fetch(`${server.url}/me/urls`, { headers: { ...headers, "x-forwarded-for": address } });

    // What the attacker did: 650 random keys, no sign-in, from one address, 25 at a time.
    const statuses = new Map<number, number>();
    const queue = Array.from({ length: 650 }, () => `usk_${randomBytes(32).toString("base64url")}`);
    await Promise.all(
      Array.from({ length: 25 }, async () => {
        for (let key = queue.pop(); key !== undefined; key = queue.pop()) {
          const res = await from("198.51.100.1", { authorization: `Bearer ${key}` });
          await res.arrayBuffer();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      }),
    );
    // All refused: 401 within the budget (5 a minute here, partly spent by the tests before), 429 past it.
    expect((statuses.get(401) ?? 0) + (statuses.get(429) ?? 0)).toBe(650);
    expect(statuses.get(429)).toBeGreaterThan(0);

    const limited = await from("198.51.100.1", { authorization: `Bearer usk_${randomBytes(32).toString("base64url")}` });
    if (limited.status === 429) {
      const wait = Number(limited.headers.get("retry-after"));
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(60);
      expect(await limited.json()).toMatchObject({ code: "resource_exhausted", message: expect.stringMatching(/^too many failed API key attempts; /) });
    } else {
      expect(limited.status).toBe(401); // the minute ended meanwhile (a very slow machine)
    }

    // Keys in force are looked up first: answered from another address and from the flooding one.
    for (const address of ["203.0.113.9", "198.51.100.1"]) {
      expect((await from(address, { authorization: `Bearer ${brandNew.key}` })).status).toBe(200);
      expect((await from(address, { "x-api-key": worked.key })).status).toBe(200);
    }
    // A revocation is seen at once; a revoked key is refused like any unknown one.
    expect((await call("DELETE", `/me/api-keys/${revoked.id}`, { token })).status).toBe(200);
    expect([401, 429]).toContain((await myUrls(revoked.key)).status);
    expect((await from("198.51.100.1", { authorization: `Bearer ${token}` })).status).toBe(200); // login tokens are not limited
    expect((await from("198.51.100.1", { authorization: `Bearer usk_${"x".repeat(42)}` })).status).toBe(401); // a malformed key costs no lookup
  });
});
