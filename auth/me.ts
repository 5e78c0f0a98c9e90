import { api } from "encore.dev/api";
import { getAuthData } from "~encore/auth";

export interface MeResponse {
  userID: string;
  email: string;
  /**
   * Whether this credential may act as an administrator (/admin/…): an account in
   * ADMIN_EMAILS signed in with a login token. An API key never may, whoever's it is.
   */
  admin: boolean;
}

/** Who the caller is, as the server sees it: for the web front end to show the admin page to administrators only. */
export const me = api(
  { expose: true, auth: true, method: "GET", path: "/me" },
  async (): Promise<MeResponse> => {
    const caller = getAuthData()!; // auth: true, so the runtime only calls it signed in
    return { userID: caller.userID, email: caller.email, admin: caller.admin && caller.credential === "login" };
  },
);
