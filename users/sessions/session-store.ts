import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { orm } from "../db";
import { sessions, sessionTokens, users } from "../schema";

// Every query of the sessions and session_tokens tables, in one place, so endpoints never build SQL.

/** A live session as its owner sees it in a list. */
export interface SessionInfo {
  id: string;
  createdAt: Date;
  lastUsedAt: Date;
  /** When it ends unless used again before: the earlier of its idle and its absolute expiry. */
  expiresAt: Date;
  /** The browser's User-Agent at sign-in; left out when it sent none. */
  userAgent?: string;
}

/** The account a session signs in as, as it is now. */
export interface SessionOwner {
  sessionID: string;
  userID: string;
  email: string;
  credentialsVersion: number;
}

export interface NewSession {
  userID: string;
  /** The version the caller's password check saw: a session started under an older one is never live. */
  credentialsVersion: number;
  tokenHash: string;
  userAgent?: string;
  idleSeconds: number;
  maxSeconds: number;
}

/**
 * What presenting a refresh token came to:
 * - "rotated": it was the session's current one, and the new hash replaces it;
 * - "grace": replaced within the grace (another tab refreshed at the same moment): a login
 *   token, no new refresh token;
 * - "reused": replaced before the grace, so a copy of an old token: the session is ended now;
 * - "ended": its session was ended (signed out, revoked, expired, or the account's credentials changed since);
 * - "unknown": no session ever had it.
 */
export type RefreshOutcome = "rotated" | "grace" | "reused" | "ended" | "unknown";

export interface Refreshed {
  outcome: RefreshOutcome;
  /** The account to issue a login token for: set for "rotated" and "grace" only. */
  owner?: SessionOwner;
}

/** Live sessions an account may hold: past this, starting one ends the least recently used. A bound on what logins can store. */
export const maxSessionsPerAccount = 100;

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A session is live while not revoked, before both its expiries, under its account's current
 * credentials version, and its account not disabled. The database's clock decides, the same
 * for every instance.
 */
const live = and(
  isNull(sessions.revokedAt),
  gt(sessions.idleExpiresAt, sql`now()`),
  gt(sessions.expiresAt, sql`now()`),
  eq(sessions.credentialsVersion, users.credentialsVersion),
  isNull(users.disabledAt),
);

const seconds = (n: number) => sql`make_interval(secs => ${n})`;

export const sessionStore = {
  /**
   * Starts a session with its first refresh token; "ended" when the account is gone, disabled
   * or its credentials changed since the caller's password was checked. Sessions of the
   * account that are no longer live are deleted, and past `maxSessionsPerAccount` live ones
   * the least recently used go.
   */
  async start(session: NewSession): Promise<{ sessionID: string } | "ended"> {
    return orm.transaction(async (tx) => {
      // The account's row locked, as a password change locks it: no session starts under a version that has just ended.
      const [account] = await tx
        .select({ credentialsVersion: users.credentialsVersion, disabledAt: users.disabledAt })
        .from(users)
        .where(eq(users.id, session.userID))
        .for("update");
      if (!account || account.disabledAt !== null || account.credentialsVersion !== session.credentialsVersion) return "ended";
      const [row] = await tx
        .insert(sessions)
        .values({
          userId: session.userID,
          credentialsVersion: session.credentialsVersion,
          idleExpiresAt: sql`now() + ${seconds(session.idleSeconds)}`,
          expiresAt: sql`now() + ${seconds(session.maxSeconds)}`,
          ...(session.userAgent !== undefined && { userAgent: session.userAgent }),
        })
        .returning({ id: sessions.id });
      await tx.insert(sessionTokens).values({ tokenHash: session.tokenHash, sessionId: row!.id });
      await tx.execute(sql`
        DELETE FROM sessions WHERE user_id = ${session.userID} AND (
          revoked_at IS NOT NULL OR idle_expires_at <= now() OR expires_at <= now() OR credentials_version <> ${session.credentialsVersion}
          OR id IN (SELECT id FROM sessions WHERE user_id = ${session.userID} ORDER BY last_used_at DESC, created_at DESC OFFSET ${maxSessionsPerAccount})
        )`);
      return { sessionID: row!.id };
    });
  },

  /**
   * Presents a refresh token. The session's row is locked first, so two refreshes of one
   * session take turns: the second sees the token the first replaced, and within
   * `graceSeconds` of that is answered as a tab that refreshed at the same moment.
   */
  async refresh(tokenHash: string, newTokenHash: string, idleSeconds: number, graceSeconds: number): Promise<Refreshed> {
    return orm.transaction(async (tx) => {
      const [token] = await tx.select({ sessionID: sessionTokens.sessionId }).from(sessionTokens).where(eq(sessionTokens.tokenHash, tokenHash));
      if (!token) return { outcome: "unknown" };
      const [session] = await tx
        .select({ sessionID: sessions.id, userID: users.id, email: users.email, credentialsVersion: users.credentialsVersion, live: sql<boolean>`${live}` })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(eq(sessions.id, token.sessionID))
        .for("update", { of: sessions });
      if (!session?.live) return { outcome: "ended" };
      // Read again now the session is locked: a refresh that held the lock may have replaced it.
      const [current] = await tx
        .select({ replaced: sql<boolean>`${sessionTokens.replacedAt} IS NOT NULL`, inGrace: sql<boolean>`${sessionTokens.replacedAt} > now() - ${seconds(graceSeconds)}` })
        .from(sessionTokens)
        .where(eq(sessionTokens.tokenHash, tokenHash));
      const { live: _live, ...owner } = session;
      if (current!.replaced && !current!.inGrace) {
        await tx.update(sessions).set({ revokedAt: sql`now()` }).where(eq(sessions.id, session.sessionID));
        return { outcome: "reused" };
      }
      await tx
        .update(sessions)
        .set({ lastUsedAt: sql`now()`, idleExpiresAt: sql`now() + ${seconds(idleSeconds)}` })
        .where(eq(sessions.id, session.sessionID));
      if (current!.replaced) return { outcome: "grace", owner };
      await tx.update(sessionTokens).set({ replacedAt: sql`now()` }).where(eq(sessionTokens.tokenHash, tokenHash));
      await tx.insert(sessionTokens).values({ tokenHash: newTokenHash, sessionId: session.sessionID });
      return { outcome: "rotated", owner };
    });
  },

  /** Ends the session a refresh token (current or replaced) belongs to; false when none does or it had ended. */
  async endByToken(tokenHash: string): Promise<boolean> {
    const ended = await orm
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .where(and(isNull(sessions.revokedAt), sql`${sessions.id} = (SELECT session_id FROM session_tokens WHERE token_hash = ${tokenHash})`))
      .returning({ id: sessions.id });
    return ended.length > 0;
  },

  /** The account's live sessions, most recently used first. */
  async list(userID: string): Promise<SessionInfo[]> {
    const rows = await orm
      .select({
        id: sessions.id,
        createdAt: sessions.createdAt,
        lastUsedAt: sessions.lastUsedAt,
        expiresAt: sql<Date>`least(${sessions.idleExpiresAt}, ${sessions.expiresAt})`.mapWith(sessions.expiresAt),
        userAgent: sessions.userAgent,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.userId, userID), live))
      .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt));
    return rows.map(({ userAgent, ...rest }) => (userAgent === null ? rest : { ...rest, userAgent }));
  },

  /** Ends one of the account's sessions; false when it has no such live one (a malformed id included). */
  async revoke(userID: string, id: string): Promise<boolean> {
    if (!uuidPattern.test(id)) return false;
    const ended = await orm
      .update(sessions)
      .set({ revokedAt: sql`now()` })
      .from(users)
      .where(and(eq(sessions.id, id), eq(sessions.userId, userID), eq(users.id, sessions.userId), live))
      .returning({ id: sessions.id });
    return ended.length > 0;
  },
};
