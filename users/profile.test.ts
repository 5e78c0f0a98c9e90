import { describe, expect, test } from "vitest";
import { users } from "~encore/clients";
import { db } from "./db";
import { passwords } from "../passwords/passwords";
import { apiKeyScopes } from "../access/scopes";

type Account = { id: string; email: string };
const as = (user: Account) => ({ authData: { userID: user.id, email: user.email, admin: false, credential: "login" as const, scopes: [...apiKeyScopes], credentialsVersion: 0 } });

let n = 0;
async function signUp(overrides: { password?: string } = {}): Promise<Account & { name: string; age?: number; createdAt: Date }> {
  n += 1;
  return users.create({ email: `user${n}@example.com`, name: `User ${n}`, age: 20 + n, password: "a fine password", ...overrides });
}

const missingId = "00000000-0000-4000-8000-000000000000";
const profile = { email: "new@example.com", name: "New Name", age: 40 };
/** What signUp's accounts are asked before a new email or password. */
const current = { currentPassword: "a fine password" };

describe("GET /users/:id", () => {
  test("the caller's own account, without its password hash", async () => {
    const ada = await signUp();
    const got = await users.get({ id: ada.id }, as(ada));
    expect(got).toEqual(ada);
    expect(JSON.stringify(got)).not.toMatch(/scrypt|password/i);
  });

  test("the caller's own id in upper case is the same account", async () => {
    const ada = await signUp();
    expect(await users.get({ id: ada.id.toUpperCase() }, as(ada))).toEqual(ada);
  });

  test("another user's account is permission_denied", async () => {
    const [ada, bob] = [await signUp(), await signUp()];
    await expect(users.get({ id: bob.id }, as(ada))).rejects.toMatchObject({ code: "permission_denied" });
  });

  test.each([missingId, "not-a-uuid", "1 OR 1=1"])("an id of no account (%j) is not_found", async (id) => {
    const ada = await signUp();
    await expect(users.get({ id }, as(ada))).rejects.toMatchObject({ code: "not_found", message: "user not found" });
  });

  test("the caller's own account, deleted behind its back, is not_found", async () => {
    const ghost = { id: missingId, email: "ghost@example.com" };
    await expect(users.get({ id: missingId }, as(ghost))).rejects.toMatchObject({ code: "not_found" });
  });

  test("without auth data it is unauthenticated", async () => {
    const ada = await signUp();
    await expect(users.get({ id: ada.id })).rejects.toMatchObject({ code: "unauthenticated" });
  });
});

describe("PUT /users/:id (replace)", () => {
  test("replaces email, name and age, keeps the id, createdAt and password, and answers with the account", async () => {
    const ada = await signUp();
    const before = (await db.queryRow<{ password_hash: string }>`SELECT password_hash FROM users WHERE id = ${ada.id}::uuid`)!;
    const replaced = await users.replace({ id: ada.id, ...profile, name: "  New Name ", ...current }, as(ada));
    expect(replaced).toEqual({ id: ada.id, createdAt: ada.createdAt, ...profile });
    expect(await users.get({ id: ada.id }, as(ada))).toEqual(replaced);
    const after = (await db.queryRow<{ password_hash: string }>`SELECT password_hash FROM users WHERE id = ${ada.id}::uuid`)!;
    expect(after.password_hash).toBe(before.password_hash);
  });

  test("a password given is re-hashed and replaces the old one", async () => {
    const ada = await signUp();
    await users.replace({ id: ada.id, email: ada.email, name: "Ada", age: 36, password: "a brand new password", ...current }, as(ada));
    const row = (await db.queryRow<{ password_hash: string }>`SELECT password_hash FROM users WHERE id = ${ada.id}::uuid`)!;
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(await passwords.verify("a brand new password", row.password_hash)).toBe(true);
    expect(await users.verifyCredentials({ email: ada.email, password: "a fine password" })).toEqual({ user: null });
  });

  test("keeping one's own email in another case is no conflict", async () => {
    const ada = await signUp();
    const replaced = await users.replace({ id: ada.id, email: ada.email.toUpperCase(), name: "Ada", age: 36 }, as(ada));
    expect(replaced.email).toBe(ada.email.toUpperCase());
  });

  test("another account's email, in any case, is already_exists and changes nothing", async () => {
    const [ada, bob] = [await signUp(), await signUp()];
    await expect(
      users.replace({ id: ada.id, email: bob.email.toUpperCase(), name: "Ada", age: 36, ...current }, as(ada)),
    ).rejects.toMatchObject({ code: "already_exists", message: "an account with this email already exists" });
    expect(await users.get({ id: ada.id }, as(ada))).toEqual(ada);
  });

  test("another user's account is permission_denied and is not changed", async () => {
    const [ada, bob] = [await signUp(), await signUp()];
    await expect(users.replace({ id: bob.id, ...profile }, as(ada))).rejects.toMatchObject({ code: "permission_denied" });
    expect(await users.get({ id: bob.id }, as(bob))).toEqual(bob);
  });

  test("an id of no account is not_found", async () => {
    const ada = await signUp();
    await expect(users.replace({ id: missingId, ...profile }, as(ada))).rejects.toMatchObject({ code: "not_found" });
    const ghost = { id: missingId, email: "ghost@example.com" };
    await expect(users.replace({ id: missingId, ...profile }, as(ghost))).rejects.toMatchObject({ code: "not_found" });
  });

  test("without auth data it is unauthenticated", async () => {
    const ada = await signUp();
    await expect(users.replace({ id: ada.id, ...profile })).rejects.toMatchObject({ code: "unauthenticated" });
  });

  test.each<[string, Record<string, unknown>, string]>([
    ["an age given as a string", { age: "36" }, "age"],
    ["a fractional age", { age: 36.5 }, "age must be a whole number, got 36.5"],
    ["an email that is not one", { email: "not-an-email" }, "email"],
    ["a blank name", { name: "   " }, "name must not be blank"],
    ["a name given as a number", { name: 7 }, "name"],
    ["a password under 8 characters", { password: "short" }, "password"],
  ])("%s is invalid_argument and changes nothing", async (_what, overrides, message) => {
    const ada = await signUp();
    const request = { id: ada.id, ...profile, ...current, ...overrides } as Parameters<typeof users.replace>[0];
    await expect(users.replace(request, as(ada))).rejects.toMatchObject({
      code: "invalid_argument",
      message: expect.stringContaining(message),
    });
    expect(await users.get({ id: ada.id }, as(ada))).toEqual(ada);
  });
});

describe("DELETE /users/:id", () => {
  test("deletes the caller's own account: it is gone, and a second delete is not_found", async () => {
    const ada = await signUp();
    await users.remove({ id: ada.id, ...current }, as(ada));
    expect(await users.userExists({ id: ada.id })).toEqual({ exists: false });
    await expect(users.get({ id: ada.id }, as(ada))).rejects.toMatchObject({ code: "not_found" });
    await expect(users.remove({ id: ada.id, ...current }, as(ada))).rejects.toMatchObject({ code: "not_found" });
  });

  test("another user's account is permission_denied and stays", async () => {
    const [ada, bob] = [await signUp(), await signUp()];
    await expect(users.remove({ id: bob.id }, as(ada))).rejects.toMatchObject({ code: "permission_denied" });
    expect(await users.userExists({ id: bob.id })).toEqual({ exists: true });
  });

  test.each([missingId, "not-a-uuid"])("an id of no account (%j) is not_found", async (id) => {
    const ada = await signUp();
    await expect(users.remove({ id }, as(ada))).rejects.toMatchObject({ code: "not_found" });
  });

  test("without auth data it is unauthenticated, and the account stays", async () => {
    const ada = await signUp();
    await expect(users.remove({ id: ada.id })).rejects.toMatchObject({ code: "unauthenticated" });
    expect(await users.userExists({ id: ada.id })).toEqual({ exists: true });
  });
});

describe("the current password", () => {
  test("a new email or password needs it: missing is invalid_argument, wrong is permission_denied, and nothing changes", async () => {
    const ada = await signUp();
    for (const change of [{ email: "moved@example.com" }, { password: "a brand new password" }]) {
      const request = { id: ada.id, email: ada.email, name: ada.name, age: ada.age, ...change };
      await expect(users.replace(request, as(ada))).rejects.toMatchObject({
        code: "invalid_argument",
        message: expect.stringMatching(/^currentPassword is required to change the (email|password)$/),
      });
      await expect(users.replace({ ...request, currentPassword: "not the password" }, as(ada))).rejects.toMatchObject({
        code: "permission_denied",
        message: "the current password is wrong",
      });
    }
    expect(await users.get({ id: ada.id }, as(ada))).toEqual(ada);
    expect(await users.verifyCredentials({ email: ada.email, password: "a fine password" })).toMatchObject({ user: { userID: ada.id } });
  });

  test("an age left out is cleared: a PUT replaces the whole profile, and age is optional since sign-up stopped asking for it", async () => {
    const ada = await signUp();
    const replaced = await users.replace({ id: ada.id, email: ada.email, name: "Ada" }, as(ada));
    expect(replaced).not.toHaveProperty("age");
    expect(await users.get({ id: ada.id }, as(ada))).not.toHaveProperty("age");
  });

  test("name and age alone, or the email in another case, need none", async () => {
    const ada = await signUp();
    const replaced = await users.replace({ id: ada.id, email: ada.email.toUpperCase(), name: "Ada", age: 50 }, as(ada));
    expect(replaced).toMatchObject({ name: "Ada", age: 50 });
  });

  test("deleting the account needs it: missing is invalid_argument, wrong is permission_denied, and the account stays", async () => {
    const ada = await signUp();
    await expect(users.remove({ id: ada.id }, as(ada))).rejects.toMatchObject({
      code: "invalid_argument",
      message: "currentPassword is required to delete the account",
    });
    await expect(users.remove({ id: ada.id, currentPassword: "not the password" }, as(ada))).rejects.toMatchObject({ code: "permission_denied" });
    expect(await users.userExists({ id: ada.id })).toEqual({ exists: true });
  });

  test("after 4 wrong ones in a row the next attempt waits, the right password too: 429 with the wait", async () => {
    const ada = await signUp();
    const attempt = (currentPassword: string) => users.replace({ id: ada.id, email: ada.email, name: "Ada", age: 30, password: "another password", currentPassword }, as(ada));
    for (let i = 0; i < 4; i++) await expect(attempt("a wrong guess")).rejects.toMatchObject({ code: "permission_denied" });
    await expect(attempt("a fine password")).rejects.toMatchObject({ code: "resource_exhausted", details: { retryAfterSeconds: 1 } });
  });
});
