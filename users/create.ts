import { api, type Header } from "encore.dev/api";
import type { IsEmail, Max, MaxLen, Min, MinLen } from "encore.dev/validate";
import { isAdminEmail } from "../access/admin-emails";
import { adminEmailClaimed, emailTaken } from "./accounts/email-claims";
import { addressKey } from "../limits/address";
import { signupLimits } from "../limits/signups";
import { passwords } from "../passwords/passwords";
import { checkedProfile } from "./accounts/profile-rules";
import { userStore, type User } from "./accounts/user-store";
import { emailVerificationRequired } from "./email-verification-config";
import { mailVerification } from "./verification/verification-mail";

export interface CreateUserRequest {
  /** Unique without regard to case: "Ann@x.io" and "ann@x.io" are one account. */
  email: string & IsEmail & MaxLen<254>;
  name: string & MinLen<1> & MaxLen<100>;
  /**
   * Optional: the spec's illustrative CreateUserRequest has it, so a sign-up that gives it
   * still works and gets it back; a string such as "36" is rejected before the handler runs.
   */
  age?: number & Min<0> & Max<150>;
  /** Stored only as a scrypt hash; never returned. */
  password: string & MinLen<8> & MaxLen<256>;
  /**
   * The client's address, for the limit on sign-ups. The runtime sets it from the
   * connection, replacing what the client sent, unless it runs behind a trusted proxy
   * (TRUST_PROXY=on), which sets it.
   */
  forwardedFor?: Header<"X-Forwarded-For">;
}

export interface CreatedUser extends User {
  /** True when the instance requires a verified email (EMAIL_VERIFICATION=on): a link was mailed, to follow before logging in. */
  verificationMailed?: boolean;
}


/**
 * Signs up: creates an account. Public. Each address may open a limited number of
 * accounts in a window (limits/signups.ts): past it, 429 resource_exhausted with
 * details.retryAfterSeconds. The scrypt hash is made last, once everything cheaper has
 * passed, and among a bounded number at once (passwords/scrypt-slots.ts): past that, 503.
 */
export const create = api(
  // sensitive: the request holds a password, which must not reach traces or logs.
  { expose: true, method: "POST", path: "/users", sensitive: true },
  async ({ email, name, age, password, forwardedFor }: CreateUserRequest): Promise<CreatedUser> => {
    const profile = checkedProfile({ name, age });
    const address = addressKey(forwardedFor);
    // Counted once the request is valid, a taken email too: otherwise an address could
    // ask which emails have accounts as fast as it likes.
    await signupLimits.count(address);
    if (await userStore.emailTaken(email)) throw emailTaken();
    if (isAdminEmail(email)) throw adminEmailClaimed(email);
    let passwordHash: string;
    try {
      passwordHash = await passwords.hash(password);
    } catch (err) {
      await signupLimits.takeBack(address); // the server was too busy: the client did nothing wrong
      throw err;
    }
    // The unique index still decides: two sign-ups racing for one email both got past the check.
    const user = await userStore.insert({ email, ...profile, passwordHash });
    if (!user) throw emailTaken();
    if (!emailVerificationRequired) return user;
    await mailVerification(user.id, user.email);
    return { ...user, verificationMailed: true };
  },
);
