import { api } from "encore.dev/api";
import type { IsEmail, Max, MaxLen, Min, MinLen } from "encore.dev/validate";
import { getAuthData } from "~encore/auth";
import { isAdminEmail } from "../auth/admin-emails";
import { adminEmailClaimed, emailTaken } from "./accounts/email-claims";
import { ownRecordId, userNotFound } from "./accounts/own-record";
import { passwords } from "./passwords/passwords";
import { checkedProfile } from "./accounts/profile-rules";
import { userStore, type User } from "./accounts/user-store";

export interface UserIdRequest {
  id: string;
}

/**
 * A whole profile, replacing the stored one (PUT). The password is not part of the
 * profile GET shows, so leaving it out keeps the current one; given, it is re-hashed
 * and replaces it.
 */
export interface ReplaceUserRequest {
  id: string;
  /** Unique without regard to case, as at sign-up. */
  email: string & IsEmail & MaxLen<254>;
  name: string & MinLen<1> & MaxLen<100>;
  /** A whole number of years; a string such as "36" is rejected before the handler runs. */
  age: number & Min<0> & Max<150>;
  /** A new password, stored only as a scrypt hash; omitted, the current one stays. */
  password?: string & MinLen<8> & MaxLen<256>;
}

/** The caller's own account. */
export const get = api(
  { expose: true, auth: true, method: "GET", path: "/users/:id" },
  async ({ id }: UserIdRequest): Promise<User> => {
    const user = await userStore.find(await ownRecordId(id));
    if (!user) throw userNotFound();
    return user;
  },
);

/** Replaces the caller's own profile: email, name and age, and the password when one is given. */
export const replace = api(
  // sensitive: the request may hold a password, which must not reach traces or logs.
  { expose: true, auth: true, method: "PUT", path: "/users/:id", sensitive: true },
  async ({ id, email, name, age, password }: ReplaceUserRequest): Promise<User> => {
    const own = await ownRecordId(id);
    const profile = checkedProfile({ name, age });
    // The account's current email: an admin keeps theirs, nobody moves onto a listed one.
    if (isAdminEmail(email) && email.toLowerCase() !== getAuthData()!.email.toLowerCase()) throw adminEmailClaimed(email);
    const passwordHash = password === undefined ? undefined : await passwords.hash(password);
    const result = await userStore.replace(own, { email, ...profile, ...(passwordHash && { passwordHash }) });
    if (result === "missing") throw userNotFound();
    if (result === "taken") throw emailTaken();
    return result;
  },
);

/** Deletes the caller's own account; its tokens stop working at once (the auth handler asks whether it exists). */
export const remove = api(
  { expose: true, auth: true, method: "DELETE", path: "/users/:id" },
  async ({ id }: UserIdRequest): Promise<void> => {
    if (!(await userStore.remove(await ownRecordId(id)))) throw userNotFound();
  },
);
