import { beforeEach, describe, expect, test } from "vitest";
import { users } from "~encore/clients";
import { db } from "./db";
import { userStore, type ListPosition } from "./accounts/user-store";
import { apiKeyScopes } from "../access/scopes";

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

const as = (userID: string) => ({ authData: { userID, email: "caller@example.com", admin: false, credential: "login" as const, scopes: [...apiKeyScopes], credentialsVersion: 0 } });

describe("GET /users", () => {
  test("shows the caller its own account, with its public fields only (no email, no age), and no other", async () => {
    const others = await insertSameInstant(25);
    const ada = await users.create({ email: "ada@example.com", name: "Ada", age: 36, password: "a fine password" });
    expect(await users.list({}, as(ada.id))).toEqual({ users: [{ id: ada.id, name: "Ada", createdAt: ada.createdAt }] });
    const page = await users.list({ limit: 100 }, as(others[3]!));
    expect(page).toEqual({ users: [{ id: others[3], name: expect.any(String), createdAt: expect.any(Date) }] });
  });

  test("a caller whose account is gone, or whose id is no account's, gets an empty page", async () => {
    await insertSameInstant(3);
    expect(await users.list({}, as("00000000-0000-4000-8000-000000000001"))).toEqual({ users: [] });
    expect(await users.list({}, as("not-a-uuid"))).toEqual({ users: [] });
  });

  test("a cursor past the caller's account gives an empty page", async () => {
    const [id] = await insertSameInstant(1);
    const { micros } = (await db.queryRow<{ micros: string }>`
      SELECT (extract(epoch from created_at) * 1000000)::bigint::text AS micros FROM users WHERE id = ${id}::uuid`)!;
    const cursor = Buffer.from(`${micros}:${id}`).toString("base64url");
    expect(await users.list({ cursor }, as(id!))).toEqual({ users: [] });
  });

  test.each<[string, Record<string, unknown>, string]>([
    ["a limit of 0", { limit: 0 }, "limit"],
    ["a limit over 100", { limit: 101 }, "limit"],
    ["a fractional limit", { limit: 2.5 }, "limit must be a whole number, got 2.5"],
    ["a limit that is not a number", { limit: "ten" }, "limit"],
    ["a cursor this endpoint did not give", { cursor: "not-a-cursor" }, "cursor must be the nextCursor of a previous page"],
    ["a cursor built by hand", { cursor: Buffer.from("1:x").toString("base64url") }, "cursor"],
  ])("%s is invalid_argument", async (_what, request, message) => {
    await expect(users.list(request as Parameters<typeof users.list>[0], as("00000000-0000-4000-8000-000000000001"))).rejects.toMatchObject({
      code: "invalid_argument",
      message: expect.stringContaining(message),
    });
  });

  test("without auth data it is unauthenticated", async () => {
    await expect(users.list({})).rejects.toMatchObject({ code: "unauthenticated" });
  });
});

// The store pages every account (what a role that may see them all would get), by keyset.
describe("userStore.list paging", () => {
  async function allPages(limit: number): Promise<{ ids: string[]; pages: number }> {
    const ids: string[] = [];
    let after: ListPosition | null = null;
    let pages = 0;
    for (;;) {
      const rows = await userStore.list(after, limit + 1);
      pages += 1;
      ids.push(...rows.slice(0, limit).map((r) => r.user.id));
      if (rows.length <= limit || pages >= 200) break;
      after = rows[limit - 1]!.position;
    }
    return { ids, pages };
  }

  test("in sign-up order, oldest first; accounts created in one microsecond are ordered by id", async () => {
    // Three instants a microsecond apart (a Date rounds them to one millisecond), two accounts each.
    await db.exec`
      INSERT INTO users (email, name, age, password_hash, created_at)
      SELECT 'u' || g || '@example.com', 'User ' || g, 30, 'not a hash',
             timestamptz '2024-01-01 00:00:00.000001+00' + (g % 3) * interval '1 microsecond'
      FROM generate_series(1, 6) AS g`;
    const expected = (await db.queryAll<{ id: string }>`SELECT id FROM users ORDER BY created_at, id`).map((r) => r.id);
    for (const limit of [1, 2, 4]) {
      const { ids, pages } = await allPages(limit);
      expect(ids).toEqual(expected); // no account skipped or repeated across pages
      expect(pages).toBe(Math.ceil(6 / limit));
    }
  });

  test("21 accounts in pages of 20: 20, then the 21st; accounts added later follow without shifting a page", async () => {
    const ids = await insertSameInstant(21);
    const first = await userStore.list(null, 21);
    expect(first.slice(0, 20).map((r) => r.user.id)).toEqual(ids.slice(0, 20));
    const later = await insertSameInstant(1, "later");
    const second = await userStore.list(first[19]!.position, 21);
    expect(second.map((r) => r.user.id)).toEqual([ids[20], later[0]]);
  });

  test("only: the one account, wherever it stands", async () => {
    const ids = await insertSameInstant(5);
    expect((await userStore.list(null, 10, ids[2])).map((r) => r.user.id)).toEqual([ids[2]]);
  });
});
