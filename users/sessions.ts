import { api, APIError } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { requireLogin } from "../access/scopes";
import { userNotFound } from "./accounts/own-record";
import { userStore } from "./accounts/user-store";
import { sessionStore, type SessionInfo } from "./sessions/session-store";

export interface ListedSession extends SessionInfo {
  /** Whether the caller's own login token belongs to this session. */
  current: boolean;
}

export interface ListSessionsResponse {
  /** The caller's live sessions (browsers signed in with the password), most recently used first. */
  sessions: ListedSession[];
}

export interface SessionIdRequest {
  id: string;
}

/** The caller's live sessions: when each started and was last used, its browser, and which is the caller's. Login tokens only. */
export const listSessions = api(
  { expose: true, auth: true, method: "GET", path: "/me/sessions" },
  async (): Promise<ListSessionsResponse> => {
    requireLogin("manage sessions");
    const caller = getAuthData()!; // auth: true, so the runtime only calls it signed in
    const listed = await sessionStore.list(caller.userID);
    return { sessions: listed.map((session) => ({ ...session, current: session.id === caller.sessionID })) };
  },
);

/**
 * Ends one of the caller's sessions: its refresh token is refused from now on, and so is its
 * login token, on every instance (the auth handler checks the session on each request).
 * Another account's session, an unknown one and one already ended are all 404. Login tokens only.
 */
export const revokeSession = api(
  { expose: true, auth: true, method: "DELETE", path: "/me/sessions/:id" },
  async ({ id }: SessionIdRequest): Promise<void> => {
    requireLogin("manage sessions");
    if (!(await sessionStore.revoke(getAuthData()!.userID, id.toLowerCase()))) throw APIError.notFound("session not found");
  },
);

/**
 * Signs the caller out everywhere: every session ends, and every login token issued until
 * now (this request's included) is refused from the next request on every instance. API
 * keys keep working: they are for programs, revoked one by one. Login tokens only.
 */
export const signOutEverywhere = api(
  { expose: true, auth: true, method: "DELETE", path: "/me/sessions" },
  async (): Promise<void> => {
    requireLogin("manage sessions");
    if (!(await userStore.signOutEverywhere(getAuthData()!.userID))) throw userNotFound();
  },
);
