import { describe, expect, test } from "vitest";
import { users } from "~encore/clients";
import { create, type CreateUserRequest } from "./create";
import { db } from "./db";
import { passwords } from "../passwords/passwords";

const signUp = (overrides: Partial<CreateUserRequest> = {}): CreateUserRequest => ({
  email: "ada@example.com",
  name: "Ada Lovelace",
  age: 36,
  password: "analytical engine",
  ...overrides,
});

async function storedHash(id: string): Promise<string> {
  const row = await db.queryRow<{ password_hash: string }>`SELECT password_hash FROM users WHERE id = ${id}::uuid`;
  return row!.password_hash;
}

describe("POST /users (sign-up)", () => {
  test("creates the account and answers with it, without the password or its hash", async () => {
    const before = Date.now();
    const user = await create(signUp({ email: "Ada@Example.com" }));
    expect(Object.keys(user).sort()).toEqual(["age", "createdAt", "email", "id", "name"]);
    expect(user).toMatchObject({ email: "Ada@Example.com", name: "Ada Lovelace", age: 36 });
    expect(user.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(user.createdAt.getTime()).toBeGreaterThanOrEqual(before - 5000);
    expect(JSON.stringify(user)).not.toMatch(/analytical engine|scrypt|password/i);
  });

  test("age is optional: a sign-up without it makes an account whose answer has no age", async () => {
    const { age: _age, ...withoutAge } = signUp({ email: "no-age@example.com" });
    const user = await create(withoutAge);
    expect(Object.keys(user).sort()).toEqual(["createdAt", "email", "id", "name"]);
    const stored = await db.queryRow<{ age: number | null }>`SELECT age FROM users WHERE id = ${user.id}::uuid`;
    expect(stored?.age).toBeNull();
  });

  test("stores a scrypt hash of the password, never the password itself", async () => {
    const user = await create(signUp({ email: "hash@example.com" }));
    const stored = await storedHash(user.id);
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(stored).not.toContain("analytical engine");
    expect(await passwords.verify("analytical engine", stored)).toBe(true);
  });

  test("an email already taken, in any case, is already_exists and changes nothing", async () => {
    const first = await create(signUp({ email: "grace@example.com", name: "Grace" }));
    for (const email of ["grace@example.com", "GRACE@example.COM"]) {
      await expect(create(signUp({ email, name: "Impostor" }))).rejects.toMatchObject({
        code: "already_exists",
        message: "an account with this email already exists",
      });
    }
    const rows = await db.queryAll<{ id: string; name: string }>`
      SELECT id, name FROM users WHERE lower(email) = 'grace@example.com'`;
    expect(rows).toEqual([{ id: first.id, name: "Grace" }]);
  });

  test("two sign-ups racing for one email: exactly one wins", async () => {
    const results = await Promise.allSettled([
      create(signUp({ email: "race@example.com" })),
      create(signUp({ email: "RACE@example.com" })),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.find((r) => r.status === "rejected")).toMatchObject({ reason: { code: "already_exists" } });
  });

  test("the name is stored trimmed", async () => {
    expect((await create(signUp({ email: "trim@example.com", name: "  Alan Turing " }))).name).toBe("Alan Turing");
  });
});

describe("POST /users rejects bad input before storing anything", () => {
  // Called through ~encore/clients, which validates like an HTTP request does.
  test("an age given as a string, such as \"36\", is invalid_argument naming age", async () => {
    await expect(users.create({ ...signUp({ email: "string-age@example.com" }), age: "36" as never })).rejects.toMatchObject({
      code: "invalid_argument",
      message: expect.stringContaining("age"),
    });
  });

  test.each<[string, Partial<Record<keyof CreateUserRequest, unknown>>, string]>([
    ["an email that is not one", { email: "not-an-email" }, "email"],
    ["an email over 254 characters", { email: `${"a".repeat(250)}@example.com` }, "email"],
    ["an empty name", { name: "" }, "name"],
    ["a name over 100 characters", { name: "n".repeat(101) }, "name"],
    ["a negative age", { age: -1 }, "age"],
    ["an age over 150", { age: 151 }, "age"],
    ["a password under 8 characters", { password: "short" }, "password"],
    ["a password over 256 characters", { password: "p".repeat(257) }, "password"],
    ["a missing password", { password: undefined }, "password"],
  ])("%s is invalid_argument naming the field", async (_what, overrides, field) => {
    const request = { ...signUp({ email: "bad-input@example.com" }), ...overrides } as CreateUserRequest;
    await expect(users.create(request)).rejects.toMatchObject({
      code: "invalid_argument",
      message: expect.stringContaining(field),
    });
  });

  test.each([
    ["a fractional age", { age: 36.5 }, "age must be a whole number, got 36.5"],
    ["a blank name", { name: "   " }, "name must not be blank"],
  ])("%s is invalid_argument", async (_what, overrides, message) => {
    await expect(users.create(signUp({ email: "bad-input@example.com", ...overrides }))).rejects.toMatchObject({
      code: "invalid_argument",
      message,
    });
  });

  test("none of the rejected sign-ups stored a row", async () => {
    const row = await db.queryRow<{ n: number }>`
      SELECT count(*)::int AS n FROM users WHERE email IN ('bad-input@example.com', 'string-age@example.com')`;
    expect(row!.n).toBe(0);
  });
});
