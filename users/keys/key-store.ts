import { and, count, desc, eq, gt, isNull, or, sql } from "drizzle-orm";
import type { ApiKeyScope } from "../../access/scopes";
import { orm } from "../db";
import { apiKeys, users } from "../schema";

// Every query of the api_keys table, in one place, so endpoints never build SQL.

/** A key as its owner sees it in a list: never the key, nor its hash. */
export interface ApiKeyInfo {
  id: string;
  name: string;
  /** The first 8 characters after `usk_`. */
  prefix: string;
  /** What the key may do. */
  scopes: ApiKeyScope[];
  /** The workspace it acts in. */
  workspaceId: string;
  createdAt: Date;
  lastUsedAt?: Date;
  expiresAt?: Date;
}

export interface StoredKey {
  name: string;
  keyHash: string;
  prefix: string;
  scopes: ApiKeyScope[];
  /** Null: the owner's personal workspace. */
  workspaceId: string | null;
  expiresAt?: Date;
}

/** The account a key signs in as, and what the key may do. */
export interface KeyOwner {
  userID: string;
  email: string;
  scopes: ApiKeyScope[];
  /** The one workspace the key acts in: the owner's personal one unless it was made for another. */
  workspaceId: string;
  credentialsVersion: number;
}

const infoColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  prefix: apiKeys.prefix,
  scopes: apiKeys.scopes,
  workspaceId: sql<string>`coalesce(${apiKeys.workspaceId}, ${apiKeys.userId}::text)`,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
  expiresAt: apiKeys.expiresAt,
};

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The database's clock decides expiry, the same for every instance whatever their clocks say. */
const inForce = and(isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, sql`now()`)));

/** How often at most a key's last_used_at is written: a write per request would make every read a write. */
const lastUsedResolution = sql`interval '1 minute'`;

export const keyStore = {
  /**
   * Stores a key of `userID` unless the account already has `maxKeys` unrevoked ones
   * ("full"), no longer exists ("missing"), or changed its password since the caller signed
   * in under `credentialsVersion` ("ended"). The account's row is locked while counting and
   * checking, as a password change locks it: two requests at once cannot both take the last
   * place, and no key made by a request that began before a password change outlives it.
   */
  async insert(userID: string, credentialsVersion: number, key: StoredKey, maxKeys: number): Promise<ApiKeyInfo | "full" | "missing" | "ended"> {
    return orm.transaction(async (tx) => {
      const [account] = await tx
        .select({ credentialsVersion: users.credentialsVersion })
        .from(users)
        .where(eq(users.id, userID))
        .for("update");
      if (!account) return "missing";
      if (account.credentialsVersion !== credentialsVersion) return "ended";
      const [held] = await tx
        .select({ n: count() })
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, userID), isNull(apiKeys.revokedAt)));
      if (held!.n >= maxKeys) return "full";
      const [row] = await tx
        .insert(apiKeys)
        .values({ userId: userID, ...key })
        .returning(infoColumns);
      return withoutNulls(row!);
    });
  },

  /** The account's unrevoked keys, expired ones included, newest first. */
  async list(userID: string): Promise<ApiKeyInfo[]> {
    const rows = await orm
      .select(infoColumns)
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userID), isNull(apiKeys.revokedAt)))
      .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
    return rows.map(withoutNulls);
  },

  /** Revokes a key of the account; false when it has no such unrevoked key (a malformed id included). */
  async revoke(userID: string, id: string): Promise<boolean> {
    if (!uuidPattern.test(id)) return false;
    const revoked = await orm
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userID), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    return revoked.length > 0;
  },

  /**
   * The owner of the key with this hash, when the key is unrevoked, unexpired and its
   * account not disabled; undefined otherwise. Marks the key used, at most once a minute.
   */
  async resolve(keyHash: string): Promise<KeyOwner | undefined> {
    const [row] = await orm
      .select({
        id: apiKeys.id,
        userID: users.id,
        email: users.email,
        scopes: apiKeys.scopes,
        workspaceId: sql<string>`coalesce(${apiKeys.workspaceId}, ${apiKeys.userId}::text)`,
        credentialsVersion: users.credentialsVersion,
        usedLately: sql<boolean>`coalesce(${apiKeys.lastUsedAt} > now() - ${lastUsedResolution}, false)`,
      })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(and(eq(apiKeys.keyHash, keyHash), inForce, isNull(users.disabledAt)));
    if (!row) return undefined;
    if (!row.usedLately) {
      // The condition again in the UPDATE: of several instances seeing the same stale
      // time, the first writes and the others change nothing.
      await orm
        .update(apiKeys)
        .set({ lastUsedAt: sql`now()` })
        .where(
          and(
            eq(apiKeys.id, row.id),
            or(isNull(apiKeys.lastUsedAt), sql`${apiKeys.lastUsedAt} <= now() - ${lastUsedResolution}`),
          ),
        );
    }
    const { userID, email, scopes, workspaceId, credentialsVersion } = row;
    return { userID, email, scopes, workspaceId, credentialsVersion };
  },
};

/** A row with its unset times left out, as the API answers them. */
function withoutNulls(row: {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  workspaceId: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
}): ApiKeyInfo {
  const { lastUsedAt, expiresAt, ...rest } = row;
  return { ...rest, ...(lastUsedAt && { lastUsedAt }), ...(expiresAt && { expiresAt }) };
}
