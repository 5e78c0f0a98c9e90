import { randomBytes } from "node:crypto";
import { api, APIError, type Header } from "encore.dev/api";
import { appMeta } from "encore.dev";
import log from "encore.dev/log";
import type { IsEmail, MaxLen, MinLen } from "encore.dev/validate";
import { addressKey } from "../limits/address";
import { passwordResetLimits } from "../limits/password-resets";
import { outgoingMail } from "../mail/events";
import { passwords } from "../passwords/passwords";
import { passwordResetStore } from "./accounts/password-reset-store";

export interface PasswordResetRequest {
  email: string & IsEmail & MaxLen<254>;
  /** The client's address, for the limit on requests (set by the runtime, as for sign-ups). */
  forwardedFor?: Header<"X-Forwarded-For">;
}

export interface NewPasswordRequest {
  /** The token of the mailed link (`#/reset/<token>`). */
  token: string & MaxLen<100>;
  password: string & MinLen<8> & MaxLen<256>;
}

/**
 * Asks for a password reset: when an active account has the email, a mail with a link that
 * sets a new password goes to it. Public. The answer is the same whether or not an account
 * has the email, and comes as soon as the account is looked up: the link is made and the
 * mail queued after it, so the time of the answer does not tell either. An address may ask
 * a limited number of times (429 past it, PASSWORD_RESET_LIMIT_PER_ADDRESS); one email gets
 * at most 3 mails an hour, the rest dropped unseen.
 */
export const requestPasswordReset = api(
  { expose: true, method: "POST", path: "/password-reset" },
  async ({ email, forwardedFor }: PasswordResetRequest): Promise<void> => {
    await passwordResetLimits.count(addressKey(forwardedFor));
    const account = await passwordResetStore.activeAccount(email);
    if (account === undefined) return;
    void mailReset(account).catch((err: unknown) =>
      // Nothing to tell the client without telling it the account exists: the log says it, and asking again sends a new link.
      log.error("password reset not mailed", { userId: account.id, error: err instanceof Error ? err.message : String(err) }),
    );
  },
);

/**
 * Sets a new password with a mailed link's token: once, within an hour of the mail, the
 * latest link only. Every login token, session and API key of the account issued before
 * it ends at once, as with a password change. Unknown, used or expired: 404, alike.
 */
export const resetPassword = api(
  // sensitive: the request holds a password and a token, which must not reach traces or logs.
  { expose: true, method: "POST", path: "/password-reset/confirm", sensitive: true },
  async ({ token, password }: NewPasswordRequest): Promise<void> => {
    if (!(await passwordResetStore.inForce(token))) throw resetNotFound();
    const passwordHash = await passwords.hash(password);
    if (!(await passwordResetStore.complete(token, passwordHash))) throw resetNotFound();
  },
);

const resetNotFound = () => APIError.notFound("this reset link is unknown, used or expired: ask for a new one");

async function mailReset(account: { id: string; email: string }): Promise<void> {
  if (!(await passwordResetLimits.mayMail(account.email))) return;
  const token = randomBytes(32).toString("base64url");
  await passwordResetStore.replace(account.id, token);
  const base = appMeta().apiBaseUrl;
  await outgoingMail.publish({
    to: account.email,
    kind: "password-reset",
    subject: "Reset your password",
    text: [
      `Someone, hopefully you, asked to reset the password of your account at ${new URL(base).host}.`,
      "",
      "Open this link within an hour to choose a new password:",
      `${base}/#/reset/${token}`,
      "",
      "If you did not ask, ignore this mail: your password stays as it is.",
    ].join("\n"),
  });
}
