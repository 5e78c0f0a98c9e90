import { api, APIError, type Query } from "encore.dev/api";
import type { Max, Min } from "encore.dev/validate";
import { getAuthData } from "~encore/auth";
import { requireLogin } from "../access/scopes";
import { userStore, type ListPosition, type PublicUser } from "./accounts/user-store";

export interface ListUsersRequest {
  /** Accounts per page, 1 to 100; default 20. */
  limit?: Query<number & Min<1> & Max<100>>;
  /** Where to continue: the `nextCursor` of the previous page. */
  cursor?: Query<string>;
}

export interface ListUsersResponse {
  /** The accounts the caller may see, in sign-up order, oldest first: today its own. */
  users: PublicUser[];
  /** Present when there are more: pass it as `cursor` for the next page. */
  nextCursor?: string;
}

const defaultLimit = 20;

/**
 * The accounts the caller may see, a page at a time, with id, name and createdAt: only its
 * own. GET /users/:id shows a caller no other account, and the collection shows no more than
 * its items: a list of every account would give anyone who signs up (which anyone may) the
 * names and ids of all the others, which no feature needs. A role that may see every
 * account (an admin) would widen the filter, not change the shape. Login tokens only: a key is 403.
 */
export const list = api(
  { expose: true, auth: true, method: "GET", path: "/users" },
  async ({ limit = defaultLimit, cursor }: ListUsersRequest): Promise<ListUsersResponse> => {
    requireLogin("read the account");
    if (!Number.isInteger(limit)) throw APIError.invalidArgument(`limit must be a whole number, got ${limit}`);
    // One row more than asked for tells whether another page follows.
    const caller = getAuthData()!; // auth: true, so the runtime only calls it signed in
    const rows = await userStore.list(cursor === undefined ? null : decodeCursor(cursor), limit + 1, caller.userID);
    const page = rows.slice(0, limit);
    const users = page.map((r) => r.user);
    return rows.length > limit ? { users, nextCursor: encodeCursor(page.at(-1)!.position) } : { users };
  },
);

// A cursor is the last row's position, (created_at in microseconds, id), as base64url:
// opaque to clients, and exact where a Date would round created_at to milliseconds.
function encodeCursor({ createdAtMicros, id }: ListPosition): string {
  return Buffer.from(`${createdAtMicros}:${id}`).toString("base64url");
}

function decodeCursor(cursor: string): ListPosition {
  const match = /^(\d{1,18}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(
    Buffer.from(cursor, "base64url").toString("latin1"),
  );
  if (!match) throw APIError.invalidArgument("cursor must be the nextCursor of a previous page");
  return { createdAtMicros: BigInt(match[1]!), id: match[2]! };
}
