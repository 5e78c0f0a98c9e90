import { api, APIError } from "encore.dev/api";
import type { IsEmail, Max, MaxLen, Min, MinLen } from "encore.dev/validate";
import { passwords } from "./passwords";
import { checkedProfile } from "./profile-rules";
import { userStore, type User } from "./user-store";

export interface CreateUserRequest {
  /** Unique without regard to case: "Ann@x.io" and "ann@x.io" are one account. */
  email: string & IsEmail & MaxLen<254>;
  name: string & MinLen<1> & MaxLen<100>;
  /** A whole number of years; a string such as "36" is rejected before the handler runs. */
  age: number & Min<0> & Max<150>;
  /** Stored only as a scrypt hash; never returned. */
  password: string & MinLen<8> & MaxLen<256>;
}

/** Signs up: creates an account. Public. */
export const create = api(
  // sensitive: the request holds a password, which must not reach traces or logs.
  { expose: true, method: "POST", path: "/users", sensitive: true },
  async ({ email, name, age, password }: CreateUserRequest): Promise<User> => {
    const profile = checkedProfile({ name, age });
    const user = await userStore.insert({ email, ...profile, passwordHash: await passwords.hash(password) });
    if (!user) throw APIError.alreadyExists("an account with this email already exists");
    return user;
  },
);
