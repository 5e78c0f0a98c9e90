import { api } from "encore.dev/api";
import type { MaxLen, Max, Min } from "encore.dev/validate";
import { sessionStore, type Refreshed } from "./sessions/session-store";

// The auth service's calls for browser sessions: it makes the refresh tokens and sets the
// cookies; this service keeps the tokens' hashes with the sessions. Internal.

export interface StartSessionRequest {
  userID: string;
  credentialsVersion: number;
  /** SHA-256 of the first refresh token, hex. */
  tokenHash: string & MaxLen<64>;
  userAgent?: string & MaxLen<256>;
  idleSeconds: number & Min<1> & Max<315360000>;
  maxSeconds: number & Min<1> & Max<315360000>;
}

export interface StartSessionResponse {
  /** The new session's id; null when the account's credentials changed (or it was disabled or deleted) since its password was checked. */
  sessionID: string | null;
}

/** Starts a session for a login that passed its password check. */
export const startSession = api(
  { expose: false, method: "POST", path: "/internal/users/sessions", sensitive: true },
  async ({ userID, credentialsVersion, tokenHash, userAgent, idleSeconds, maxSeconds }: StartSessionRequest): Promise<StartSessionResponse> => {
    const started = await sessionStore.start({ userID, credentialsVersion, tokenHash, idleSeconds, maxSeconds, ...(userAgent !== undefined && { userAgent }) });
    return { sessionID: started === "ended" ? null : started.sessionID };
  },
);

export interface RefreshSessionRequest {
  tokenHash: string & MaxLen<64>;
  /** The hash of the token that replaces it, when it is the session's current one. */
  newTokenHash: string & MaxLen<64>;
  idleSeconds: number & Min<1> & Max<315360000>;
  graceSeconds: number & Min<0> & Max<3600>;
}

/** Presents a refresh token: rotated, answered within the grace, refused, or (reused) its session ended. */
export const refreshSession = api(
  { expose: false, method: "POST", path: "/internal/users/sessions/refresh", sensitive: true },
  async ({ tokenHash, newTokenHash, idleSeconds, graceSeconds }: RefreshSessionRequest): Promise<Refreshed> =>
    sessionStore.refresh(tokenHash, newTokenHash, idleSeconds, graceSeconds),
);

export interface EndSessionRequest {
  tokenHash: string & MaxLen<64>;
}

export interface EndSessionResponse {
  ended: boolean;
}

/** Ends the session a refresh token belongs to (signing out). */
export const endSession = api(
  { expose: false, method: "POST", path: "/internal/users/sessions/end", sensitive: true },
  async ({ tokenHash }: EndSessionRequest): Promise<EndSessionResponse> => ({ ended: await sessionStore.endByToken(tokenHash) }),
);
