import { APIError } from "encore.dev/api";
import { and, desc, eq, ilike, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { orm } from "../db";
import { users } from "../schema";

// The administrators' view of every account (the moderation service's GET /admin/users),
// newest first: a spam wave shows up as the latest sign-ups.

/** An account as an administrator sees it: never the password hash. */
export interface AccountSummary {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
  /** When a moderator disabled it; left out while it is enabled. */
  disabledAt?: Date;
}

export type AccountStatusFilter = "active" | "disabled" | "all";

export interface AccountSearch {
  /** A substring of the email or the name, in any case, `%` and `_` plain; undefined: every account. */
  readonly q?: string;
  readonly status: AccountStatusFilter;
  /** Rows to read: the page's size plus one. */
  readonly rows: number;
  readonly cursor?: string;
}

const createdAtMicros = sql<string>`(extract(epoch from ${users.createdAt}) * 1000000)::bigint`;
const microsToTimestamp = (micros: bigint) => sql`to_timestamp(${micros.toString()}::numeric / 1000000)`;

/** A page of accounts, newest first (ties by id), from users_created_at_id_idx read backwards. */
export async function searchAccounts(search: AccountSearch): Promise<{ accounts: AccountSummary[]; last?: string }> {
  const after = search.cursor === undefined ? undefined : decodeCursor(search.cursor);
  const pattern = search.q === undefined ? undefined : `%${search.q.replace(/[\\%_]/g, "\\$&")}%`;
  const rows = await orm
    .select({ id: users.id, email: users.email, name: users.name, createdAt: users.createdAt, disabledAt: users.disabledAt, micros: createdAtMicros })
    .from(users)
    .where(
      and(
        pattern === undefined ? undefined : or(ilike(users.email, pattern), ilike(users.name, pattern)),
        search.status === "active" ? isNull(users.disabledAt) : search.status === "disabled" ? isNotNull(users.disabledAt) : undefined,
        after === undefined
          ? undefined
          : or(
              lt(users.createdAt, microsToTimestamp(after.micros)),
              and(eq(users.createdAt, microsToTimestamp(after.micros)), lt(users.id, after.id)),
            ),
      ),
    )
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(search.rows);
  const accounts = rows.map(({ micros: _, disabledAt, ...account }) => ({ ...account, ...(disabledAt !== null && { disabledAt }) }));
  const last = rows.at(-2);
  return rows.length === search.rows && last ? { accounts, last: encodeCursor(BigInt(last.micros), last.id) } : { accounts };
}

/** The emails of these accounts (unknown ids left out), to show who made a link. */
export async function emailsOf(ids: readonly string[]): Promise<Array<{ id: string; email: string }>> {
  const uuids = ids.filter((id) => uuidPattern.test(id));
  if (uuids.length === 0) return [];
  return orm.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, uuids));
}

/** The names and emails of these accounts (in no order); deleted ones are left out. */
export async function peopleOf(ids: readonly string[]): Promise<Array<{ id: string; email: string; name: string }>> {
  const uuids = ids.filter((id) => uuidPattern.test(id));
  if (uuids.length === 0) return [];
  return orm.select({ id: users.id, email: users.email, name: users.name }).from(users).where(inArray(users.id, uuids));
}

/** The account with this email, in any case. */
export async function accountByEmail(email: string): Promise<string | undefined> {
  const [row] = await orm.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1);
  return row?.id;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// A cursor is the last account's (created_at in microseconds, id) as base64url: opaque to
// clients, and exact where a Date would round created_at to milliseconds.
function encodeCursor(micros: bigint, id: string): string {
  return Buffer.from(`d${micros}:${id}`).toString("base64url");
}

function decodeCursor(cursor: string): { micros: bigint; id: string } {
  const match = /^d(\d{1,18}):([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(Buffer.from(cursor, "base64url").toString("latin1"));
  if (!match) throw APIError.invalidArgument("cursor must be the nextCursor of a previous page");
  return { micros: BigInt(match[1]!), id: match[2]! };
}
