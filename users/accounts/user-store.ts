import { and, asc, eq, gt, isNull, or, sql, DrizzleQueryError } from "drizzle-orm";
import { orm } from "../db";
import { apiKeys, sessions, users } from "../schema";

// Every query of the users table, in one place, so endpoints never build SQL.

export interface User {
  id: string;
  /** As given at sign-up; matched without regard to case. */
  email: string;
  name: string;
  /** Left out when the account gave none (sign-up no longer asks for it). */
  age?: number;
  createdAt: Date;
}

/** What GET /users shows of an account: no email, no age. */
export interface PublicUser {
  id: string;
  name: string;
  createdAt: Date;
}

/** Where a page of GET /users starts: after this account, in (created_at, id) order. */
export interface ListPosition {
  /** created_at in microseconds since 1970, exactly (a Date keeps only milliseconds). */
  createdAtMicros: bigint;
  id: string;
}

export interface NewUser {
  email: string;
  name: string;
  age: number | null;
  passwordHash: string;
}

/** The columns of a User: never password_hash. */
const userColumns = {
  id: users.id,
  email: users.email,
  name: users.name,
  age: users.age,
  createdAt: users.createdAt,
};

/** A profile replacing an account's (PUT /users/:id); passwordHash only when it changes. */
export interface ReplacedUser {
  email: string;
  name: string;
  /** null clears it: a PUT replaces the whole profile. */
  age: number | null;
  passwordHash?: string;
}

const createdAtMicros = sql<string>`(extract(epoch from ${users.createdAt}) * 1000000)::bigint`;

// A well-formed UUID, checked before querying: PostgreSQL rejects anything else
// compared with a uuid column with an error, where the caller wants "no such user".
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const userStore = {
  /**
   * Stores a new account; undefined when the email is taken in any case. The unique
   * index on lower(email) decides (ON CONFLICT DO NOTHING, with no target, covers it),
   * so two sign-ups racing for one email cannot both win.
   */
  async insert(user: NewUser): Promise<User | undefined> {
    const [row] = await orm.insert(users).values(user).onConflictDoNothing().returning(userColumns);
    return row && userOf(row);
  },

  /** Whether an account has this email, in any case: checked before a sign-up pays for a hash. */
  async emailTaken(email: string): Promise<boolean> {
    const [row] = await orm
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`)
      .limit(1);
    return row !== undefined;
  },

  /** The account with this email in any case, with its password hash; for credential checks only. */
  async findLogin(
    email: string,
  ): Promise<{ id: string; email: string; passwordHash: string; credentialsVersion: number; disabled: boolean; emailVerified: boolean } | undefined> {
    const [row] = await orm
      .select({
        id: users.id,
        email: users.email,
        passwordHash: users.passwordHash,
        credentialsVersion: users.credentialsVersion,
        disabledAt: users.disabledAt,
        emailVerifiedAt: users.emailVerifiedAt,
      })
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`);
    if (!row) return undefined;
    const { disabledAt, emailVerifiedAt, ...login } = row;
    return { ...login, disabled: disabledAt !== null, emailVerified: emailVerifiedAt !== null };
  },

  /** The password hash of the account with this id; for checking a current password only. */
  async passwordHash(id: string): Promise<string | undefined> {
    if (!uuidPattern.test(id)) return undefined;
    const [row] = await orm.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, id));
    return row?.passwordHash;
  },

  /**
   * The account with this id, its current email and credentials version, unless it is
   * disabled or gone; with `sessionID`, also unless that session of the account was signed
   * out or revoked (a login token from POST /auth/login carries its session's id).
   */
  async findActive(id: string, sessionID?: string): Promise<{ userID: string; email: string; credentialsVersion: number } | undefined> {
    if (!uuidPattern.test(id) || (sessionID !== undefined && !uuidPattern.test(sessionID))) return undefined;
    const sessionInForce =
      sessionID === undefined
        ? undefined
        : sql`EXISTS (SELECT 1 FROM ${sessions} WHERE ${sessions.id} = ${sessionID} AND ${sessions.userId} = ${users.id} AND ${sessions.revokedAt} IS NULL)`;
    const [row] = await orm
      .select({ userID: users.id, email: users.email, credentialsVersion: users.credentialsVersion })
      .from(users)
      .where(and(eq(users.id, id), isNull(users.disabledAt), sessionInForce));
    return row;
  },

  /**
   * Signs the account out everywhere: ends every session and, by raising the credentials
   * version, every login token issued until now, on every instance at once. API keys stay:
   * they are for programs, which the owner revokes one by one (a password change ends them
   * too). False when there is no such account.
   */
  async signOutEverywhere(id: string): Promise<boolean> {
    return orm.transaction(async (tx) => {
      const [row] = await tx.update(users).set(endCredentials).where(eq(users.id, id)).returning({ id: users.id });
      if (!row) return false;
      await tx.update(sessions).set({ revokedAt: sql`now()` }).where(and(eq(sessions.userId, id), isNull(sessions.revokedAt)));
      return true;
    });
  },

  /**
   * Disables or enables an account. A disabled account keeps the time it was first
   * disabled; `changed` tells whether this call changed anything. Undefined for no account.
   * Disabling ends the account's credentials (endCredentials), in the same transaction:
   * enabled again, it signs in afresh.
   */
  async setDisabled(id: string, disabled: boolean): Promise<{ email: string; disabledAt: Date | null; changed: boolean } | undefined> {
    if (!uuidPattern.test(id)) return undefined;
    const columns = { email: users.email, disabledAt: users.disabledAt };
    return orm.transaction(async (tx) => {
      // Only a row in the other state is updated, so `changed` is exact when two calls race.
      const [updated] = await tx
        .update(users)
        .set(disabled ? { disabledAt: sql`now()`, ...endCredentials } : { disabledAt: null })
        .where(and(eq(users.id, id), disabled ? isNull(users.disabledAt) : sql`${users.disabledAt} IS NOT NULL`))
        .returning(columns);
      if (updated) {
        if (disabled) await revokeKeys(tx, id);
        return { ...updated, changed: true };
      }
      const [current] = await tx.select(columns).from(users).where(eq(users.id, id));
      return current && { ...current, changed: false };
    });
  },

  /** The account with this id; undefined for no account (a malformed id included). */
  async find(id: string): Promise<User | undefined> {
    if (!uuidPattern.test(id)) return undefined;
    const [row] = await orm.select(userColumns).from(users).where(eq(users.id, id));
    return row && userOf(row);
  },

  /**
   * Replaces an account's profile: "missing" when there is no such account, "taken"
   * when the new email belongs to another account in any case (the unique index
   * decides, so a concurrent sign-up or replace cannot slip in between). A new password
   * ends the account's credentials (endCredentials) in the same transaction.
   */
  async replace(id: string, profile: ReplacedUser): Promise<User | "missing" | "taken"> {
    if (!uuidPattern.test(id)) return "missing";
    try {
      return await orm.transaction(async (tx) => {
        // Another email (not the same in another case) is not verified until its own link is followed.
        const emailVerifiedAt = sql`CASE WHEN lower(${users.email}) = lower(${profile.email}) THEN ${users.emailVerifiedAt} END`;
        const changes = { ...profile, emailVerifiedAt, ...(profile.passwordHash !== undefined && endCredentials) };
        const [row] = await tx.update(users).set(changes).where(eq(users.id, id)).returning(userColumns);
        if (row && profile.passwordHash !== undefined) await revokeKeys(tx, id);
        return row ? userOf(row) : "missing";
      });
    } catch (err) {
      if (err instanceof DrizzleQueryError && (err.cause as { code?: unknown } | undefined)?.code === uniqueViolation) {
        return "taken";
      }
      throw err;
    }
  },

  /** Deletes an account; false when there was none. */
  async remove(id: string): Promise<boolean> {
    if (!uuidPattern.test(id)) return false;
    const deleted = await orm.delete(users).where(eq(users.id, id)).returning({ id: users.id });
    return deleted.length > 0;
  },

  /**
   * Up to `limit` accounts in sign-up order, (created_at, id), after `after`, only the one
   * with id `only` when given; each with its position, for the next page's cursor. Keyset
   * paging along users_created_at_id_idx: stable while accounts are added or removed, and as
   * cheap on the last page as the first.
   */
  async list(after: ListPosition | null, limit: number, only?: string): Promise<Array<{ user: PublicUser; position: ListPosition }>> {
    if (only !== undefined && !uuidPattern.test(only)) return [];
    const afterCursor = after
      ? or(
          gt(users.createdAt, microsToTimestamp(after.createdAtMicros)),
          and(eq(users.createdAt, microsToTimestamp(after.createdAtMicros)), gt(users.id, after.id)),
        )
      : undefined;
    const rows = await orm
      .select({ id: users.id, name: users.name, createdAt: users.createdAt, micros: createdAtMicros })
      .from(users)
      .where(and(afterCursor, only === undefined ? undefined : eq(users.id, only)))
      .orderBy(asc(users.createdAt), asc(users.id))
      .limit(limit);
    return rows.map(({ micros, ...user }) => ({ user, position: { createdAtMicros: BigInt(micros), id: user.id } }));
  },

  async exists(id: string): Promise<boolean> {
    if (!uuidPattern.test(id)) return false;
    const [row] = await orm.select({ id: users.id }).from(users).where(eq(users.id, id)).limit(1);
    return row !== undefined;
  },
};

const uniqueViolation = "23505";

/** A row as the API answers it: an age not given is left out. */
function userOf(row: { id: string; email: string; name: string; age: number | null; createdAt: Date }): User {
  const { age, ...rest } = row;
  return age === null ? rest : { ...rest, age };
}

/**
 * Ends every login token and API key of an account issued until now, on every instance at
 * once: tokens carry the version they were issued under, and the auth handler, which reads
 * the account on every request, refuses an older one. A version rather than a time: JWT
 * times have a resolution of a second and come from each instance's clock, so a token
 * issued in the same second as the change could not be told from one issued just after.
 */
export const endCredentials = { credentialsVersion: sql`${users.credentialsVersion} + 1` };

export type Transaction = Parameters<Parameters<typeof orm.transaction>[0]>[0];

/** Revokes the account's keys, with the change that ends its credentials (their rows locked by it). */
export async function revokeKeys(tx: Transaction, userID: string): Promise<void> {
  await tx
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(apiKeys.userId, userID), isNull(apiKeys.revokedAt)));
}

/** A timestamptz from microseconds since 1970, exactly (to_timestamp takes a float). */
const microsToTimestamp = (micros: bigint) =>
  sql<Date>`(timestamptz 'epoch' + ${micros.toString()}::bigint * interval '1 microsecond')`;
