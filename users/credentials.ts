import { api } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { passwords } from "./passwords/passwords";
import { userStore } from "./accounts/user-store";

export interface VerifyCredentialsRequest {
  email: string & MaxLen<254>;
  password: string & MaxLen<256>;
}

export interface VerifiedUser {
  userID: string;
  /** The account's email as stored (its case may differ from the one given). */
  email: string;
}

export interface VerifyCredentialsResponse {
  /** The account, when the email exists and the password matches; null otherwise, whichever it was. */
  user: VerifiedUser | null;
}

/**
 * Checks an email and password, for the auth service's login. Internal.
 *
 * An unknown email is checked against a dummy hash with the same scrypt parameters, so
 * it costs the same work as a wrong password and the response time does not tell
 * whether an account exists; both answer `{ user: null }`.
 */
export const verifyCredentials = api(
  { expose: false, method: "POST", path: "/internal/users/verify-credentials", sensitive: true },
  async ({ email, password }: VerifyCredentialsRequest): Promise<VerifyCredentialsResponse> => {
    const account = await userStore.findLogin(email);
    const matches = await passwords.verify(password, account?.passwordHash ?? passwords.unknownUserHash);
    return { user: account && matches ? { userID: account.id, email: account.email } : null };
  },
);
