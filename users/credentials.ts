import { api } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { passwords } from "../passwords/passwords";
import { userStore } from "./accounts/user-store";
import { emailVerificationRequired } from "./email-verification-config";

export interface VerifyCredentialsRequest {
  email: string & MaxLen<254>;
  password: string & MaxLen<256>;
}

export interface VerifiedUser {
  userID: string;
  /** The account's email as stored (its case may differ from the one given). */
  email: string;
  /** Raised by each password change and disabling; a login token carries it (users/accounts/user-store.ts). */
  credentialsVersion: number;
}

export interface VerifyCredentialsResponse {
  /** The account, when the email exists and the password matches; null otherwise, whichever it was. */
  user: VerifiedUser | null;
  /**
   * True when the password is right but a moderator disabled the account (`user` is then
   * null); left out otherwise. Said only to whoever knows the password: a guesser learns
   * nothing of an account's state.
   */
  disabled?: boolean;
  /**
   * True when the password is right but the instance requires a verified email
   * (EMAIL_VERIFICATION=on) and this account's is not (`user` is then null); said, like
   * `disabled`, only to whoever knows the password.
   */
  unverified?: boolean;
}

/**
 * Checks an email and password, for the auth service's login. Internal.
 *
 * An unknown email is checked against a dummy hash with the same scrypt parameters, so
 * it costs the same work as a wrong password and the response time does not tell
 * whether an account exists; both answer `{ user: null }`. A disabled account with the right
 * password answers `{ user: null, disabled: true }`.
 */
export const verifyCredentials = api(
  { expose: false, method: "POST", path: "/internal/users/verify-credentials", sensitive: true },
  async ({ email, password }: VerifyCredentialsRequest): Promise<VerifyCredentialsResponse> => {
    const account = await userStore.findLogin(email);
    const matches = await passwords.verify(password, account?.passwordHash ?? passwords.unknownUserHash);
    if (!account || !matches) return { user: null };
    if (account.disabled) return { user: null, disabled: true };
    if (emailVerificationRequired && !account.emailVerified) return { user: null, unverified: true };
    return { user: { userID: account.id, email: account.email, credentialsVersion: account.credentialsVersion } };
  },
);
