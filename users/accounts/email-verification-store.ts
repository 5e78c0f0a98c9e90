import { and, eq, gt, isNull, lte, or, sql } from "drizzle-orm";
import { orm } from "../db";
import { emailVerifications, users } from "../schema";
import { tokenHash } from "./password-reset-store";

// The email_verifications table: the tokens mailed at sign-up and on an email change.

/** How long a mailed link works: a day, as the mail may be read the next morning. */
const verificationLifetimeMs = 24 * 60 * 60 * 1000;

export const emailVerificationStore = {
  /** The active, unverified account with this email in any case: who a new verification mail goes to. */
  async unverifiedAccount(email: string): Promise<{ id: string; email: string } | undefined> {
    const [row] = await orm
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(sql`lower(${users.email}) = lower(${email})`, isNull(users.disabledAt), isNull(users.emailVerifiedAt)));
    return row;
  },

  /** Stores a verification of `email` for the account, replacing its earlier ones (and every expired one). */
  async replace(userId: string, email: string, token: string): Promise<void> {
    await orm.transaction(async (tx) => {
      await tx.delete(emailVerifications).where(or(eq(emailVerifications.userId, userId), lte(emailVerifications.expiresAt, sql`now()`)));
      await tx.insert(emailVerifications).values({ tokenHash: tokenHash(token), userId, email, expiresAt: new Date(Date.now() + verificationLifetimeMs) });
    });
  },

  /**
   * Uses the token once: marks the account's email verified, if it is still the email the
   * link was mailed to (in any case). False when the token is unknown, used or expired, or
   * the email changed since.
   */
  async complete(token: string): Promise<boolean> {
    return orm.transaction(async (tx) => {
      const [used] = await tx
        .delete(emailVerifications)
        .where(and(eq(emailVerifications.tokenHash, tokenHash(token)), gt(emailVerifications.expiresAt, sql`now()`)))
        .returning({ userId: emailVerifications.userId, email: emailVerifications.email });
      if (!used) return false;
      const [verified] = await tx
        .update(users)
        .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, now())` })
        .where(and(eq(users.id, used.userId), sql`lower(${users.email}) = lower(${used.email})`))
        .returning({ id: users.id });
      return verified !== undefined;
    });
  },
};
