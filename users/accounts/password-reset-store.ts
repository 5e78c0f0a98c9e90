import { createHash } from "node:crypto";
import { and, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import { orm } from "../db";
import { passwordResets, sessions, users } from "../schema";
import { endCredentials, revokeKeys } from "./user-store";

// The password_resets table: the tokens mailed by POST /password-reset, by their hash.

/** How long a mailed link works. An hour: enough to find the mail, short for a link left in an inbox. */
export const resetLifetimeMs = 60 * 60 * 1000;

/** SHA-256, hex: the token is 32 random bytes, so a fast hash is enough (no guessing to slow down). */
export const tokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

export const passwordResetStore = {
  /** The active (not disabled) account with this email in any case: who a reset mail goes to. */
  async activeAccount(email: string): Promise<{ id: string; email: string } | undefined> {
    const [row] = await orm
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(sql`lower(${users.email}) = lower(${email})`, isNull(users.disabledAt)));
    return row;
  },

  /**
   * Stores a reset for the account, replacing its earlier ones: only the latest mail's link
   * works. Expired resets of every account go at the same time, so unused links do not pile up.
   */
  async replace(userId: string, token: string): Promise<void> {
    await orm.transaction(async (tx) => {
      await tx.delete(passwordResets).where(or(eq(passwordResets.userId, userId), lte(passwordResets.expiresAt, sql`now()`)));
      await tx.insert(passwordResets).values({ tokenHash: tokenHash(token), userId, expiresAt: new Date(Date.now() + resetLifetimeMs) });
    });
  },

  /** Whether the token is one in force: checked before a new password is hashed, so a wrong one costs no scrypt. */
  async inForce(token: string): Promise<boolean> {
    const [row] = await orm
      .select({ userId: passwordResets.userId })
      .from(passwordResets)
      .where(and(eq(passwordResets.tokenHash, tokenHash(token)), gt(passwordResets.expiresAt, sql`now()`)));
    return row !== undefined;
  },

  /**
   * Uses the token once: sets the new password and, as a password change does, ends every
   * login token, session and API key of the account issued before, all in one transaction.
   * False when the token is unknown, used (also by a request racing this one: the DELETE
   * decides), expired, or its account was disabled since.
   */
  async complete(token: string, passwordHash: string): Promise<boolean> {
    return orm.transaction(async (tx) => {
      const [used] = await tx
        .delete(passwordResets)
        .where(and(eq(passwordResets.tokenHash, tokenHash(token)), gt(passwordResets.expiresAt, sql`now()`)))
        .returning({ userId: passwordResets.userId });
      if (!used) return false;
      const [changed] = await tx
        .update(users)
        .set({ passwordHash, ...endCredentials })
        .where(and(eq(users.id, used.userId), isNull(users.disabledAt)))
        .returning({ id: users.id });
      if (!changed) return false;
      await revokeKeys(tx, used.userId);
      await tx.update(sessions).set({ revokedAt: sql`now()` }).where(and(eq(sessions.userId, used.userId), isNull(sessions.revokedAt)));
      return true;
    });
  },
};
