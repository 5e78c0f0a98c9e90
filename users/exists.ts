import { api } from "encore.dev/api";
import { userStore } from "./accounts/user-store";
import type { VerifiedUser } from "./credentials";

export interface UserExistsRequest {
  id: string;
}

export interface ActiveAccountRequest {
  id: string;
  /** The session a login token was issued for: the account counts as active only while it is not signed out or revoked. */
  sessionID?: string;
}

export interface UserExistsResponse {
  exists: boolean;
}

/** Whether an account still exists, disabled or not. Internal. */
export const userExists = api(
  { expose: false, method: "GET", path: "/internal/users/:id/exists" },
  async ({ id }: UserExistsRequest): Promise<UserExistsResponse> => ({ exists: await userStore.exists(id) }),
);

export interface ActiveAccountResponse {
  /** The account with its current email and credentials version; null when it was deleted or is disabled. */
  account: VerifiedUser | null;
}

/**
 * The account a login token names, as it is now, so the auth handler refuses the tokens
 * of deleted and disabled accounts, and of sessions signed out or revoked, at once, and sees
 * an email changed since login. Internal.
 */
export const activeAccount = api(
  { expose: false, method: "GET", path: "/internal/users/:id/active" },
  async ({ id, sessionID }: ActiveAccountRequest): Promise<ActiveAccountResponse> => ({
    account: (await userStore.findActive(id, sessionID)) ?? null,
  }),
);
