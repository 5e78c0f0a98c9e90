import { api, APIError, type Header } from "encore.dev/api";
import log from "encore.dev/log";
import type { IsEmail, MaxLen } from "encore.dev/validate";
import { addressKey } from "../limits/address";
import { passwordResetLimits } from "../limits/password-resets";
import { emailVerificationStore } from "./accounts/email-verification-store";
import { emailVerificationRequired } from "./email-verification-config";
import { mailVerification } from "./verification/verification-mail";

export interface VerificationMailRequest {
  email: string & IsEmail & MaxLen<254>;
  /** The client's address, for the limit on requests (set by the runtime, as for sign-ups). */
  forwardedFor?: Header<"X-Forwarded-For">;
}

export interface VerifyEmailRequest {
  /** The token of the mailed link (`#/verify/<token>`). */
  token: string & MaxLen<100>;
}

/**
 * Mails a new verification link to an active account whose email is not verified, when the
 * instance requires verification (EMAIL_VERIFICATION=on). Public: the login page offers it
 * when a login is refused for that. Answered `{}` alike for any email, as POST
 * /password-reset is, and counted against the same limits (per address, and 3 mails an hour per email).
 */
export const requestVerificationMail = api(
  { expose: true, method: "POST", path: "/email-verification" },
  async ({ email, forwardedFor }: VerificationMailRequest): Promise<void> => {
    await passwordResetLimits.count(addressKey(forwardedFor));
    if (!emailVerificationRequired) return;
    const account = await emailVerificationStore.unverifiedAccount(email);
    if (account === undefined) return;
    void (async () => {
      if (await passwordResetLimits.mayMail(account.email)) await mailVerification(account.id, account.email);
    })().catch((err: unknown) => log.error("verification not mailed", { userId: account.id, error: err instanceof Error ? err.message : String(err) }));
  },
);

/**
 * Verifies an account's email with a mailed link's token: once, within a day, the latest link
 * only, and only while the account's email is still the one it was mailed to. Unknown, used or
 * expired: 404, alike.
 */
export const verifyEmail = api(
  { expose: true, method: "POST", path: "/email-verification/confirm", sensitive: true },
  async ({ token }: VerifyEmailRequest): Promise<void> => {
    if (!(await emailVerificationStore.complete(token))) throw APIError.notFound("this verification link is unknown, used or expired: ask for a new one");
  },
);
