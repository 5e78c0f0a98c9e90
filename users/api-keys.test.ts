import { describe, expect, test } from "vitest";
import { users } from "~encore/clients";
import { maxApiKeysPerAccount } from "./api-keys";
import { db } from "./db";
import { hashApiKey } from "../access/api-key";
import { apiKeyScopes } from "../access/scopes";

type Account = { id: string; email: string };
const as = (user: Account) => ({ authData: { userID: user.id, email: user.email, admin: false, credential: "login" as const, scopes: [...apiKeyScopes], credentialsVersion: 0 } });

let n = 0;
async function signUp(): Promise<Account> {
  n += 1;
  return users.create({ email: `keys${n}@example.com`, name: `Keys ${n}`, age: 30, password: "a fine password" });
}

// A time as a client call carries it: the self-host runtime validates a call's request as
// its JSON (a Date object in it is refused as "must be string"), where Encore serializes the
// Date first. Noted for the runtime; ISO strings work in both.
const at = (ms: number) => new Date(ms).toISOString() as unknown as Date;
const inAnHour = () => at(Date.now() + 3600_000);

describe("POST /me/api-keys", () => {
  test("answers the key once, usk_ and 43 base64url characters, and stores only its SHA-256", async () => {
    const ada = await signUp();
    const expiresAt = inAnHour();
    const created = await users.createApiKey({ name: "  deploy script ", expiresAt }, as(ada));
    expect(created).toEqual({
      id: expect.any(String),
      name: "deploy script",
      key: expect.stringMatching(/^usk_[A-Za-z0-9_-]{43}$/),
      prefix: created.key.slice(4, 12),
      scopes: ["links:read", "links:write", "analytics:read"],
      workspaceId: ada.id, // left out: the personal workspace, whose id is the account's
      createdAt: expect.any(Date),
      expiresAt: new Date(expiresAt),
    });
    const rows = await db.queryAll<Record<string, unknown>>`SELECT * FROM api_keys WHERE user_id = ${ada.id}::uuid`;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key_hash).toBe(hashApiKey(created.key));
    expect(rows[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(created.key.slice(4));
  });

  test("two keys are never the same", async () => {
    const ada = await signUp();
    const [a, b] = [await users.createApiKey({ name: "a" }, as(ada)), await users.createApiKey({ name: "b" }, as(ada))];
    expect(a.key).not.toBe(b.key);
    expect(a).not.toHaveProperty("expiresAt");
  });

  test.each<[string, Record<string, unknown>, string]>([
    ["an empty name", { name: "" }, "name"],
    ["a name over 100 characters", { name: "n".repeat(101) }, "name"],
    ["a blank name", { name: "   " }, "name must not be blank"],
    ["an expiry in the past", { name: "k", expiresAt: at(Date.now() - 1000) }, "expiresAt must be a time in the future"],
  ])("%s is invalid_argument and stores nothing", async (_what, request, message) => {
    const ada = await signUp();
    await expect(users.createApiKey(request as never, as(ada))).rejects.toMatchObject({
      code: "invalid_argument",
      message: expect.stringContaining(message),
    });
    expect((await users.listApiKeys(as(ada))).keys).toEqual([]);
  });

  test(`past ${maxApiKeysPerAccount} unrevoked keys, failed_precondition; revoking one makes room`, async () => {
    const ada = await signUp();
    const created = await Promise.all(
      Array.from({ length: maxApiKeysPerAccount + 5 }, (_, i) => users.createApiKey({ name: `k${i}` }, as(ada)).catch((err: unknown) => err)),
    );
    const refused = created.filter((c) => c instanceof Error);
    expect(refused).toHaveLength(5); // all at once: the account's row is locked while counting
    expect(refused[0]).toMatchObject({
      code: "failed_precondition",
      message: `an account may hold at most ${maxApiKeysPerAccount} API keys: revoke one to create another`,
    });
    const { keys } = await users.listApiKeys(as(ada));
    expect(keys).toHaveLength(maxApiKeysPerAccount);
    await users.revokeApiKey({ id: keys[0]!.id }, as(ada));
    await expect(users.createApiKey({ name: "one more" }, as(ada))).resolves.toMatchObject({ name: "one more" });
  });

  test("without auth data it is unauthenticated", async () => {
    await expect(users.createApiKey({ name: "k" })).rejects.toMatchObject({ code: "unauthenticated" });
  });

  test("the scopes chosen are stored each once, in a fixed order, and listed; none chosen is all three", async () => {
    const ada = await signUp();
    const chosen = await users.createApiKey({ name: "reader", scopes: ["analytics:read", "links:read", "analytics:read"] }, as(ada));
    expect(chosen.scopes).toEqual(["links:read", "analytics:read"]);
    const all = await users.createApiKey({ name: "all" }, as(ada));
    expect(all.scopes).toEqual(["links:read", "links:write", "analytics:read"]);
    const listed = Object.fromEntries((await users.listApiKeys(as(ada))).keys.map((k) => [k.name, k.scopes]));
    expect(listed).toEqual({ reader: ["links:read", "analytics:read"], all: ["links:read", "links:write", "analytics:read"] });
  });

  test.each<[string, unknown[], string]>([
    ["no scope at all", [], "scopes must hold at least one of links:read, links:write, analytics:read"],
    ["an unknown scope", ["links:read", "account:write"], "scopes"],
  ])("%s is invalid_argument and stores nothing", async (_what, scopes, message) => {
    const ada = await signUp();
    await expect(users.createApiKey({ name: "k", scopes } as never, as(ada))).rejects.toMatchObject({
      code: "invalid_argument",
      message: expect.stringContaining(message),
    });
    expect((await users.listApiKeys(as(ada))).keys).toEqual([]);
  });

  test("a key, whatever its scopes, cannot create, list or revoke keys: permission_denied", async () => {
    const ada = await signUp();
    const { id } = await users.createApiKey({ name: "k" }, as(ada));
    const byKey = { authData: { ...as(ada).authData, credential: "api-key" as const } };
    const refusal = { code: "permission_denied", message: "an API key cannot manage API keys: sign in with the account's password to do this" };
    await expect(users.createApiKey({ name: "made by a key" }, byKey)).rejects.toMatchObject(refusal);
    await expect(users.listApiKeys(byKey)).rejects.toMatchObject(refusal);
    await expect(users.revokeApiKey({ id }, byKey)).rejects.toMatchObject(refusal);
    expect((await users.listApiKeys(as(ada))).keys.map((k) => k.id)).toEqual([id]);
  });

  test("a sign-in that a password change ended cannot make a key, even if it got past the auth handler before the change", async () => {
    const ada = await signUp();
    await users.replace({ id: ada.id, email: ada.email, name: "A", age: 30, password: "a new password", currentPassword: "a fine password" }, as(ada));
    // as(ada) still says version 0, as a request authenticated just before the change would.
    await expect(users.createApiKey({ name: "late" }, as(ada))).rejects.toMatchObject({ code: "unauthenticated" });
    const current = { authData: { ...as(ada).authData, credentialsVersion: 1 } };
    expect((await users.listApiKeys(current)).keys).toEqual([]);
  });
});

describe("GET /me/api-keys and DELETE /me/api-keys/:id", () => {
  test("lists the caller's own unrevoked keys newest first, never the key; revoked ones leave the list", async () => {
    const [ada, bob] = [await signUp(), await signUp()];
    const first = await users.createApiKey({ name: "first" }, as(ada));
    const second = await users.createApiKey({ name: "second", expiresAt: inAnHour() }, as(ada));
    await users.createApiKey({ name: "bob's" }, as(bob));

    const { keys } = await users.listApiKeys(as(ada));
    expect(keys.map((k) => k.name)).toEqual(["second", "first"]);
    expect(keys[0]).toEqual({ id: second.id, name: "second", prefix: second.prefix, scopes: second.scopes, workspaceId: ada.id, createdAt: second.createdAt, expiresAt: second.expiresAt });
    expect(JSON.stringify(keys)).not.toContain(first.key);
    expect(JSON.stringify(keys)).not.toMatch(/key_?hash/i);

    await users.revokeApiKey({ id: first.id.toUpperCase() }, as(ada));
    expect((await users.listApiKeys(as(ada))).keys.map((k) => k.id)).toEqual([second.id]);
    const row = await db.queryRow<{ revoked: boolean }>`SELECT revoked_at IS NOT NULL AS revoked FROM api_keys WHERE id = ${first.id}::uuid`;
    expect(row).toEqual({ revoked: true }); // the row stays, marked
  });

  test("revoking twice, an unknown id, a malformed one and another user's key are all not_found", async () => {
    const [ada, bob] = [await signUp(), await signUp()];
    const adas = await users.createApiKey({ name: "ada's" }, as(ada));
    await users.revokeApiKey({ id: adas.id }, as(ada));
    for (const id of [adas.id, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      await expect(users.revokeApiKey({ id }, as(ada))).rejects.toMatchObject({ code: "not_found", message: "API key not found" });
    }
    const bobs = await users.createApiKey({ name: "bob's" }, as(bob));
    await expect(users.revokeApiKey({ id: bobs.id }, as(ada))).rejects.toMatchObject({ code: "not_found" });
    expect((await users.listApiKeys(as(bob))).keys.map((k) => k.id)).toEqual([bobs.id]);
  });
});

describe("resolveApiKey (internal)", () => {
  test("a key in force gives its account; last_used_at is written once, not again within the minute", async () => {
    const ada = await signUp();
    const { key, id } = await users.createApiKey({ name: "k" }, as(ada));
    const lastUsed = async () =>
      (await db.queryRow<{ t: Date | null }>`SELECT last_used_at AS t FROM api_keys WHERE id = ${id}::uuid`)!.t;
    expect(await lastUsed()).toBeNull();

    const owner = { userID: ada.id, email: ada.email, scopes: ["links:read", "links:write", "analytics:read"], workspaceId: ada.id, credentialsVersion: 0 };
    expect(await users.resolveApiKey({ key })).toEqual({ owner });
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    await users.resolveApiKey({ key });
    expect(await lastUsed()).toEqual(first); // no write per request
    expect((await users.listApiKeys(as(ada))).keys[0]!.lastUsedAt).toEqual(first);

    await db.exec`UPDATE api_keys SET last_used_at = now() - interval '61 seconds' WHERE id = ${id}::uuid`;
    const stale = await lastUsed();
    await users.resolveApiKey({ key });
    expect((await lastUsed())!.getTime()).toBeGreaterThan(stale!.getTime());
  });

  test("a revoked key, an expired one, an unknown one and a malformed one give no account", async () => {
    const ada = await signUp();
    const revoked = await users.createApiKey({ name: "revoked" }, as(ada));
    await users.revokeApiKey({ id: revoked.id }, as(ada));
    const expired = await users.createApiKey({ name: "expired", expiresAt: inAnHour() }, as(ada));
    await db.exec`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = ${expired.id}::uuid`;
    const unknown = `usk_${"A".repeat(43)}`;
    for (const key of [revoked.key, expired.key, unknown, "usk_short", revoked.key.toUpperCase()]) {
      expect(await users.resolveApiKey({ key })).toEqual({ owner: null });
    }
  });

  test("a deleted account's keys go with it", async () => {
    const ada = await signUp();
    const { key } = await users.createApiKey({ name: "k" }, as(ada));
    await users.remove({ id: ada.id, currentPassword: "a fine password" }, as(ada));
    expect(await users.resolveApiKey({ key })).toEqual({ owner: null });
    expect((await db.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM api_keys WHERE user_id = ${ada.id}::uuid`)!.n).toBe(0);
  });
});

describe("setAccountDisabled (internal)", () => {
  test("a disabled account: its keys give no account, it is not active, and the right password says disabled; enabled, its old keys stay ended", async () => {
    const ada = await signUp();
    const { key } = await users.createApiKey({ name: "k" }, as(ada));
    const disabled = await users.setAccountDisabled({ id: ada.id, disabled: true });
    expect(disabled).toEqual({ id: ada.id, email: ada.email, disabledAt: expect.any(Date), changed: true });
    expect(await users.setAccountDisabled({ id: ada.id.toUpperCase(), disabled: true })).toEqual({ ...disabled, changed: false });

    expect(await users.resolveApiKey({ key })).toEqual({ owner: null });
    expect(await users.activeAccount({ id: ada.id })).toEqual({ account: null });
    expect(await users.userExists({ id: ada.id })).toEqual({ exists: true }); // it exists, disabled
    expect(await users.verifyCredentials({ email: ada.email, password: "a fine password" })).toEqual({ user: null, disabled: true });
    expect(await users.verifyCredentials({ email: ada.email, password: "a wrong guess!" })).toEqual({ user: null });

    expect(await users.setAccountDisabled({ id: ada.id, disabled: false })).toEqual({ id: ada.id, email: ada.email, changed: true });
    // Disabling ended the account's credentials: its keys are revoked, its version raised.
    expect(await users.resolveApiKey({ key })).toEqual({ owner: null });
    expect(await users.activeAccount({ id: ada.id })).toEqual({ account: { userID: ada.id, email: ada.email, credentialsVersion: 1 } });
    expect((await users.listApiKeys(as(ada))).keys).toEqual([]);
    expect(await users.setAccountDisabled({ id: ada.id, disabled: false })).toMatchObject({ changed: false });
  });

  test.each(["00000000-0000-4000-8000-000000000000", "not-a-uuid"])("an id of no account (%j) is not_found", async (id) => {
    await expect(users.setAccountDisabled({ id, disabled: true })).rejects.toMatchObject({ code: "not_found" });
  });
});
