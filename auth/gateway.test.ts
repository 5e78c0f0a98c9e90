import { randomBytes } from "node:crypto";
import { SQLDatabase } from "encore.dev/storage/sqldb";
import { SignJWT, type JWTPayload } from "jose";
import { beforeAll, describe, expect, test, vi } from "vitest";
import { users } from "~encore/clients";
import { apiKeyScopes } from "../access/scopes";
import { jwtKey } from "./config";
import { auth } from "./gateway";
import { login } from "./login";
import { tokenAudience, tokenIssuer } from "./jwt/tokens";

vi.hoisted(() => {
  // Read once, when the modules load.
  process.env.ADMIN_EMAILS = " Boss@Example.com,deputy@example.com, ";
  // One budget for the whole file: only the last tests spend it (describe "guessing keys").
  process.env.API_KEY_FAILURES_PER_MINUTE = "5";
});

// The users service's database, only to delete an account behind the service's back.
const usersDb = SQLDatabase.named("users");

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const nowSeconds = () => Math.floor(Date.now() / 1000);

let alice: { id: string; email: string };
let validToken: string;

beforeAll(async () => {
  alice = await users.create({ email: "alice@example.com", name: "Alice", age: 30, password: "alice's password" });
  ({ token: validToken } = await login({ email: "alice@example.com", password: "alice's password", forwardedFor: "192.0.2.1" }));
});

/** A token like the app's, with any claim, header or key changed. */
function sign(
  claims: JWTPayload = {},
  { key = jwtKey, alg = "HS256" }: { key?: Uint8Array; alg?: string } = {},
): Promise<string> {
  const iat = nowSeconds();
  const standard = { sub: alice.id, iss: tokenIssuer, aud: tokenAudience, iat, nbf: iat, exp: iat + 3600 };
  return new SignJWT({ email: alice.email, ...standard, ...claims }).setProtectedHeader({ alg, typ: "JWT" }).sign(key);
}

async function expectRefused(authorization: string): Promise<void> {
  await expect(auth({ authorization })).rejects.toMatchObject({ code: "unauthenticated", message: "invalid or expired token" });
}

describe("the auth handler", () => {
  test("accepts a token from login, giving the user's id and email, as a login with every scope, and its session", async () => {
    expect(await auth({ authorization: `Bearer ${validToken}` })).toEqual({
      userID: alice.id,
      email: "alice@example.com",
      admin: false,
      credential: "login",
      scopes: ["links:read", "links:write", "analytics:read"],
      credentialsVersion: 0,
      sessionID: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  test("refuses a login token sent as X-API-Key, and Authorization with X-API-Key together", async () => {
    await expect(auth({ apiKey: validToken })).rejects.toMatchObject({ code: "unauthenticated", message: "invalid or expired token" });
    await expect(auth({ authorization: `Bearer ${validToken}`, apiKey: validToken })).rejects.toMatchObject({
      code: "invalid_argument",
      message: "send a credential in Authorization or in X-API-Key, not both",
    });
  });

  test("takes the Bearer scheme in any case, and surrounding spaces", async () => {
    expect((await auth({ authorization: `  bearer ${validToken} ` }))?.userID).toBe(alice.id);
  });

  test("accepts a token the app signed with all its claims in order (the test's own signer agrees with login's)", async () => {
    expect((await auth({ authorization: `Bearer ${await sign()}` }))?.userID).toBe(alice.id);
  });

  test.each([
    ["the token without the Bearer scheme", () => validToken],
    ["another scheme", () => `Basic ${validToken}`],
    ["Bearer and nothing", () => "Bearer "],
    ["an empty header", () => ""],
    ["a token that is not a JWT", () => "Bearer not.a.jwt"],
    ["a token of two tokens", () => `Bearer ${validToken} ${validToken}`],
    ["a token over 4096 characters", () => `Bearer ${validToken}${"A".repeat(4096)}`],
  ])("refuses %s", async (_what, header) => {
    await expectRefused(header());
  });

  test("refuses a token whose exp has passed, beyond the 30 s of clock tolerance", async () => {
    const now = nowSeconds();
    await expectRefused(`Bearer ${await sign({ iat: now - 7200, nbf: now - 7200, exp: now - 60 })}`);
    // 10 s past exp is within the tolerance for clocks that differ between instances.
    const justExpired = await sign({ iat: now - 3610, nbf: now - 3610, exp: now - 10 });
    expect((await auth({ authorization: `Bearer ${justExpired}` }))?.userID).toBe(alice.id);
  });

  test("refuses a token that is not valid yet (nbf in the future), or has no exp", async () => {
    await expectRefused(`Bearer ${await sign({ nbf: nowSeconds() + 120 })}`);
    await expectRefused(`Bearer ${await sign({ exp: undefined })}`);
  });

  test("refuses a token signed with another key", async () => {
    await expectRefused(`Bearer ${await sign({}, { key: randomBytes(32) })}`);
  });

  test("refuses another algorithm with the right key (HS512): the algorithm is pinned", async () => {
    await expectRefused(`Bearer ${await sign({}, { alg: "HS512" })}`);
  });

  test('refuses alg "none", with or without a signature', async () => {
    const [, payload, signature] = validToken.split(".");
    const header = b64url({ alg: "none", typ: "JWT" });
    await expectRefused(`Bearer ${header}.${payload}.`);
    await expectRefused(`Bearer ${header}.${payload}.${signature}`);
  });

  test("refuses a token whose payload was changed after signing", async () => {
    const [header, payload, signature] = validToken.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const forged = b64url({ ...claims, sub: "00000000-0000-4000-8000-000000000000", exp: claims.exp + 86_400 });
    await expectRefused(`Bearer ${header}.${forged}.${signature}`);
  });

  test("refuses a token made for another issuer or audience", async () => {
    await expectRefused(`Bearer ${await sign({ iss: "someone-else" })}`);
    await expectRefused(`Bearer ${await sign({ aud: "another-api" })}`);
  });

  test("refuses a token of a user that no longer exists", async () => {
    const bob = await users.create({ email: "bob@example.com", name: "Bob", age: 41, password: "bob's password" });
    const { token } = await login({ email: "bob@example.com", password: "bob's password", forwardedFor: "192.0.2.2" });
    expect((await auth({ authorization: `Bearer ${token}` }))?.userID).toBe(bob.id);
    await usersDb.exec`DELETE FROM users WHERE id = ${bob.id}::uuid`;
    await expectRefused(`Bearer ${token}`);
  });
});

type Account = { id: string; email: string };
/** Signed in with a login token, as the endpoints that manage keys require. */
const as = (user: Account, credentialsVersion = 0) => ({
  authData: { userID: user.id, email: user.email, admin: false, credential: "login" as const, scopes: [...apiKeyScopes], credentialsVersion },
});
let accounts = 0;
const signUp = (email = `key-holder${++accounts}@example.com`) => users.create({ email, name: "K", age: 30, password: "a fine password" });
const randomKey = () => `usk_${randomBytes(32).toString("base64url")}`;

describe("API keys", () => {
  test("a key in force gives its account and its scopes, by Authorization or by X-API-Key", async () => {
    const carol = await signUp();
    const { key } = await users.createApiKey({ name: "ci", scopes: ["links:read"] }, as(carol));
    const caller = { userID: carol.id, email: carol.email, admin: false, credential: "api-key", scopes: ["links:read"], workspaceId: carol.id, credentialsVersion: 0 };
    expect(await auth({ authorization: `Bearer ${key}` })).toEqual(caller);
    expect(await auth({ authorization: `bearer ${key}` })).toMatchObject({ userID: carol.id });
    expect(await auth({ apiKey: key })).toEqual(caller);
    expect(await auth({ apiKey: ` ${key} ` })).toEqual(caller);
  });

  test("malformed keys are refused without a lookup and count nothing: more of them than the budget leave a new key working", async () => {
    for (let i = 0; i < 12; i++) await expectRefused(`Bearer usk_${"x".repeat(i % 2 ? 42 : 44)}`);
    await expectRefused("Bearer usk_");
    await expectRefused(`Bearer usk_${"a".repeat(42)}!`);
    const gina = await signUp();
    const { key } = await users.createApiKey({ name: "new" }, as(gina));
    expect((await auth({ authorization: `Bearer ${key}` }))?.userID).toBe(gina.id);
  });

  test("a revoked key and an unknown one get the one message", async () => {
    const dave = await signUp();
    const { key, id } = await users.createApiKey({ name: "old" }, as(dave));
    await users.revokeApiKey({ id }, as(dave));
    await expectRefused(`Bearer ${key}`);
    await expectRefused(`Bearer usk_${"x".repeat(43)}`);
  });

  test("disabling an account ends its tokens and keys for good: enabled again, it signs in afresh", async () => {
    const frank = await signUp("frank@example.com");
    const { key } = await users.createApiKey({ name: "k" }, as(frank));
    const signIn = () => login({ email: "frank@example.com", password: "a fine password", forwardedFor: "192.0.2.3" });
    const { token } = await signIn();
    await users.setAccountDisabled({ id: frank.id, disabled: true });
    await expectRefused(`Bearer ${token}`);
    await expectRefused(`Bearer ${key}`);
    await users.setAccountDisabled({ id: frank.id, disabled: false });
    await expectRefused(`Bearer ${token}`);
    await expectRefused(`Bearer ${key}`);
    const fresh = await signIn();
    expect(await auth({ authorization: `Bearer ${fresh.token}` })).toMatchObject({ userID: frank.id, credentialsVersion: 1 });
  });

  test("a password change ends every token and key issued before it, a token of the same second included; the new password's token works", async () => {
    const grace = await signUp("grace@example.com");
    const signIn = (password: string) => login({ email: "grace@example.com", password, forwardedFor: "192.0.2.6" });
    const { key } = await users.createApiKey({ name: "k" }, as(grace));
    const { token } = await signIn("a fine password");
    await users.replace(
      { id: grace.id, email: grace.email, name: "G", age: 30, password: "a new password", currentPassword: "a fine password" },
      as(grace),
    );
    const { token: fresh } = await signIn("a new password");
    // Tokens carry the account's credentials version, not a time: one issued in the same
    // second as the change (as these two may be) is still told apart.
    await expectRefused(`Bearer ${token}`);
    await expectRefused(`Bearer ${key}`);
    expect(await auth({ authorization: `Bearer ${fresh}` })).toMatchObject({ userID: grace.id, credential: "login" });
  });
});

const asAccount = (user: Account) => as(user);

describe("the admin flag", () => {
  test("is true for an account whose current email is in ADMIN_EMAILS, in any case, by token; never by key", async () => {
    // The account exists before its email is listed, as an operator makes an admin: the
    // email is set behind the service's back, since the service refuses a listed one.
    const boss = await users.create({ email: "boss-to-be@example.com", name: "Boss", age: 50, password: "the boss's password" });
    await usersDb.exec`UPDATE users SET email = 'boss@EXAMPLE.com' WHERE id = ${boss.id}::uuid`;
    const { token } = await login({ email: "boss@example.com", password: "the boss's password", forwardedFor: "192.0.2.4" });
    const as = { authData: { ...asAccount({ id: boss.id, email: "boss@EXAMPLE.com" }).authData, admin: true } };
    const { key } = await users.createApiKey({ name: "admin script" }, as);
    expect(await auth({ authorization: `Bearer ${token}` })).toMatchObject({ userID: boss.id, email: "boss@EXAMPLE.com", admin: true });
    expect(await auth({ authorization: `Bearer ${key}` })).toMatchObject({ admin: false, credential: "api-key" });

    // An email changed since login counts, not the one in the token.
    const password = { currentPassword: "the boss's password" };
    await users.replace({ id: boss.id, email: "former-boss@example.com", name: "Boss", age: 50, ...password }, as);
    expect(await auth({ authorization: `Bearer ${token}` })).toMatchObject({ userID: boss.id, email: "former-boss@example.com", admin: false });
  });

  test("a listed email no account holds cannot be claimed, by signing up or by changing an email", async () => {
    const taken = { code: "already_exists", message: "an account with this email already exists" };
    await expect(users.create({ email: "Deputy@example.com", name: "D", age: 40, password: "a fine password" })).rejects.toMatchObject(taken);
    const mallory = await users.create({ email: "mallory@example.com", name: "M", age: 40, password: "a fine password" });
    const as = asAccount(mallory);
    await expect(users.replace({ id: mallory.id, email: "deputy@EXAMPLE.com", name: "M", age: 40 }, as)).rejects.toMatchObject(taken);
    expect(await auth({ authorization: `Bearer ${(await login({ email: "mallory@example.com", password: "a fine password", forwardedFor: "192.0.2.5" })).token}` }))
      .toMatchObject({ email: "mallory@example.com", admin: false });
  });
});

// Last in the file: it spends the file's budget of failed lookups for the rest of the minute.
describe("guessing keys", () => {
  test("past API_KEY_FAILURES_PER_MINUTE failed lookups unknown keys are 429; every key in force, a new one too, is answered", async () => {
    const erin = await signUp();
    const [worked, revoked, brandNew] = [
      await users.createApiKey({ name: "worked" }, as(erin)),
      await users.createApiKey({ name: "to revoke" }, as(erin)),
      await users.createApiKey({ name: "never used" }, as(erin)),
    ];
    for (const { key } of [worked, revoked]) expect((await auth({ authorization: `Bearer ${key}` }))?.userID).toBe(erin.id);

    // Failures from anywhere spend the one budget (5; earlier tests in this file failed 3).
    const outcomes: string[] = [];
    let refused: unknown;
    while (outcomes.length < 6 && refused === undefined) {
      const outcome = await auth({ authorization: `Bearer ${randomKey()}` }).catch((err: { code: string }) => err);
      outcomes.push((outcome as { code: string }).code);
      if ((outcome as { code: string }).code === "resource_exhausted") refused = outcome;
    }
    expect(outcomes.at(-1)).toBe("resource_exhausted");
    expect(outcomes.slice(0, -1).every((code) => code === "unauthenticated")).toBe(true);
    const wait = (refused as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);

    // Looked up first, whatever the budget: a key that exists is answered, a never-used one too.
    expect((await auth({ authorization: `Bearer ${brandNew.key}` }))?.userID).toBe(erin.id);
    expect((await auth({ apiKey: brandNew.key }))?.userID).toBe(erin.id);
    expect((await auth({ authorization: `Bearer ${worked.key}` }))?.userID).toBe(erin.id);
    // A revoked key is refused at once, past the budget with 429 as any other that finds nothing.
    await users.revokeApiKey({ id: revoked.id }, as(erin));
    await expect(auth({ authorization: `Bearer ${revoked.key}` })).rejects.toMatchObject({ code: "resource_exhausted" });
    // A malformed key costs nothing, so is refused as such; login tokens are not limited.
    await expectRefused(`Bearer usk_${"x".repeat(42)}`);
    expect((await auth({ authorization: `Bearer ${validToken}` }))?.userID).toBe(alice.id);
  });
});
