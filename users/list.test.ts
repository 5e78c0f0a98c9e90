import { beforeEach, describe, expect, test } from "vitest";
import { users } from "~encore/clients";
import { db } from "./db";

// Any signed-in caller may list; the runtime checks the auth data, not that the account exists.
const signedIn = { authData: { userID: "00000000-0000-4000-8000-000000000001", email: "caller@example.com" } };

// Rows are inserted directly, with a placeholder hash: listing never reads it, and
// scrypt for each of 21 accounts would only make the tests slow.
beforeEach(async () => {
  await db.exec`DELETE FROM users`;
});

/** n accounts in one statement: one created_at (the transaction's now()), so order falls to id. */
async function insertSameInstant(n: number, prefix = "u"): Promise<string[]> {
  const rows = await db.queryAll<{ id: string }>`
    INSERT INTO users (email, name, age, password_hash)
    SELECT ${prefix} || g || '@example.com', 'User ' || g, 30, 'not a hash' FROM generate_series(1, ${n}::int) AS g
    RETURNING id`;
  return rows.map((r) => r.id).sort();
}

async function allPages(limit?: number): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await users.list({ ...(limit && { limit }), ...(cursor && { cursor }) }, signedIn);
    pages += 1;
    ids.push(...page.users.map((u) => u.id));
    cursor = page.nextCursor;
  } while (cursor !== undefined && pages < 100);
  return { ids, pages };
}

describe("GET /users (paged)", () => {
  test("with no accounts: an empty page and no cursor", async () => {
    expect(await users.list({}, signedIn)).toEqual({ users: [] });
  });

  test("one account: shown with its public fields only (no email, no age, no hash), and no cursor", async () => {
    const ada = await users.create({ email: "ada@example.com", name: "Ada", age: 36, password: "a fine password" });
    const page = await users.list({}, signedIn);
    expect(page).toEqual({ users: [{ id: ada.id, name: "Ada", createdAt: ada.createdAt }] });
  });

  test("20 accounts fill the default page exactly: no cursor", async () => {
    const ids = await insertSameInstant(20);
    const page = await users.list({}, signedIn);
    expect(page.users.map((u) => u.id)).toEqual(ids);
    expect(page.nextCursor).toBeUndefined();
  });

  test("21 accounts: 20, then a cursor to the 21st and no cursor after it", async () => {
    const ids = await insertSameInstant(21);
    const first = await users.list({}, signedIn);
    expect(first.users.map((u) => u.id)).toEqual(ids.slice(0, 20));
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await users.list({ cursor: first.nextCursor! }, signedIn);
    expect(second).toEqual({ users: [expect.objectContaining({ id: ids[20] })] });
  });

  test("in sign-up order, oldest first; accounts created in one microsecond are ordered by id", async () => {
    // Three instants a microsecond apart (a Date rounds them to one millisecond), two accounts each.
    await db.exec`
      INSERT INTO users (email, name, age, password_hash, created_at)
      SELECT 'u' || g || '@example.com', 'User ' || g, 30, 'not a hash',
             timestamptz '2024-01-01 00:00:00.000001+00' + (g % 3) * interval '1 microsecond'
      FROM generate_series(1, 6) AS g`;
    const expected = (
      await db.queryAll<{ id: string }>`SELECT id FROM users ORDER BY created_at, id`
    ).map((r) => r.id);
    for (const limit of [1, 2, 4]) {
      const { ids, pages } = await allPages(limit);
      expect(ids).toEqual(expected); // no account skipped or repeated across pages
      expect(pages).toBe(Math.ceil(6 / limit));
    }
  });

  test("a page of up to 100; the walk gives every account once", async () => {
    const ids = await insertSameInstant(101);
    const first = await users.list({ limit: 100 }, signedIn);
    expect(first.users).toHaveLength(100);
    expect((await allPages(100)).ids).toEqual(ids);
    expect((await allPages()).ids).toEqual(ids);
  });

  test("accounts signed up after a page was read follow on the next page, without shifting it", async () => {
    const ids = await insertSameInstant(3);
    const first = await users.list({ limit: 2 }, signedIn);
    expect(first.users.map((u) => u.id)).toEqual(ids.slice(0, 2));
    const later = await insertSameInstant(1, "later");
    const second = await users.list({ limit: 2, cursor: first.nextCursor! }, signedIn);
    expect(second).toEqual({ users: [expect.objectContaining({ id: ids[2] }), expect.objectContaining({ id: later[0] })] });
  });

  test.each<[string, Record<string, unknown>, string]>([
    ["a limit of 0", { limit: 0 }, "limit"],
    ["a limit over 100", { limit: 101 }, "limit"],
    ["a fractional limit", { limit: 2.5 }, "limit must be a whole number, got 2.5"],
    ["a limit that is not a number", { limit: "ten" }, "limit"],
    ["a cursor this endpoint did not give", { cursor: "not-a-cursor" }, "cursor must be the nextCursor of a previous page"],
    ["a cursor built by hand", { cursor: Buffer.from("1:x").toString("base64url") }, "cursor"],
  ])("%s is invalid_argument", async (_what, request, message) => {
    await expect(users.list(request as Parameters<typeof users.list>[0], signedIn)).rejects.toMatchObject({
      code: "invalid_argument",
      message: expect.stringContaining(message),
    });
  });

  test("without auth data it is unauthenticated", async () => {
    await expect(users.list({})).rejects.toMatchObject({ code: "unauthenticated" });
  });
});
