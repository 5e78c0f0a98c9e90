import { api, type Header } from "encore.dev/api";
import type { IsEmail, Max, MaxLen, Min, MinLen } from "encore.dev/validate";
import { getAuthData } from "~encore/auth";
import { requireLogin } from "../access/scopes";
import { isAdminEmail } from "../access/admin-emails";
import { requireCurrentPassword } from "./accounts/current-password";
import { adminEmailClaimed, emailTaken } from "./accounts/email-claims";
import { ownRecordId, userNotFound } from "./accounts/own-record";
import { passwords } from "../passwords/passwords";
import { checkedProfile } from "./accounts/profile-rules";
import { userStore, type User } from "./accounts/user-store";
import { emailVerificationRequired } from "./email-verification-config";
import { mailVerification } from "./verification/verification-mail";

export interface UserIdRequest {
  id: string;
}

/**
 * A whole profile, replacing the stored one (PUT). The password is not part of the
 * profile GET shows, so leaving it out keeps the current one; given, it is re-hashed
 * and replaces it. A new email or password needs `currentPassword`.
 */
export interface ReplaceUserRequest {
  id: string;
  /** Unique without regard to case, as at sign-up. */
  email: string & IsEmail & MaxLen<254>;
  name: string & MinLen<1> & MaxLen<100>;
  /** A whole number of years; optional, and left out it is cleared (a PUT replaces the whole profile). */
  age?: number & Min<0> & Max<150>;
  /**
   * A new password, stored only as a scrypt hash; omitted, the current one stays. It ends
   * every login token and API key of the account issued before it, this request's included.
   */
  password?: string & MinLen<8> & MaxLen<256>;
  /** The account's current password: required to change the email (other than in case) or the password. */
  currentPassword?: string & MaxLen<256>;
}

export interface RemoveUserRequest {
  id: string;
  /** The account's current password, in a header: a DELETE has no body, and a query string ends up in logs. */
  currentPassword?: Header<"X-Current-Password">;
}

/** The caller's own account. Login tokens only: a key is 403, whatever its scopes. */
export const get = api(
  { expose: true, auth: true, method: "GET", path: "/users/:id" },
  async ({ id }: UserIdRequest): Promise<User> => {
    requireLogin("read the account");
    const user = await userStore.find(await ownRecordId(id));
    if (!user) throw userNotFound();
    return user;
  },
);

/**
 * Replaces the caller's own profile: email, name and age (left out: cleared), and the password when one is
 * given. A new email or password needs the current password (400 without it, 403 when
 * wrong, 429 after repeated wrong ones). Login tokens only: a key is 403.
 */
export const replace = api(
  // sensitive: the request may hold a password, which must not reach traces or logs.
  { expose: true, auth: true, method: "PUT", path: "/users/:id", sensitive: true },
  async ({ id, email, name, age, password, currentPassword }: ReplaceUserRequest): Promise<User> => {
    requireLogin("change the account");
    const own = await ownRecordId(id);
    const profile = checkedProfile({ name, age });
    const caller = getAuthData()!;
    // The account's current email: an admin keeps theirs, nobody moves onto a listed one.
    if (isAdminEmail(email) && email.toLowerCase() !== caller.email.toLowerCase()) throw adminEmailClaimed(email);
    // The same email in another case is the same address (emails match without regard to case).
    if (password !== undefined || email.toLowerCase() !== caller.email.toLowerCase()) {
      await requireCurrentPassword(own, currentPassword, password !== undefined ? "change the password" : "change the email");
    }
    const passwordHash = password === undefined ? undefined : await passwords.hash(password);
    const result = await userStore.replace(own, { email, ...profile, ...(passwordHash && { passwordHash }) });
    if (result === "missing") throw userNotFound();
    if (result === "taken") throw emailTaken();
    // Another email is unverified until its link is followed (the store cleared it): the link goes to the new address.
    if (emailVerificationRequired && email.toLowerCase() !== caller.email.toLowerCase()) await mailVerification(own, result.email);
    return result;
  },
);

/**
 * Deletes the caller's own account; its tokens and keys stop working at once (the auth
 * handler asks whether it exists). Needs the current password in X-Current-Password
 * (400 without it, 403 when wrong). Login tokens only: a key is 403.
 */
export const remove = api(
  // sensitive: the request holds a password, which must not reach traces or logs.
  { expose: true, auth: true, method: "DELETE", path: "/users/:id", sensitive: true },
  async ({ id, currentPassword }: RemoveUserRequest): Promise<void> => {
    requireLogin("delete the account");
    const own = await ownRecordId(id);
    await requireCurrentPassword(own, currentPassword, "delete the account");
    if (!(await userStore.remove(own))) throw userNotFound();
  },
);
