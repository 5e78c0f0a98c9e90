import { api, APIError, type Header } from "encore.dev/api";
import { users } from "~encore/clients";
import { issueToken } from "./jwt/tokens";
import { sessionConfig } from "./sessions/config";
import { clearedRefreshCookie, hashRefreshToken, newRefreshToken, refreshCookie, refreshTokenIn } from "./sessions/cookie";

export interface RefreshRequest {
  /** The browser sends the refresh cookie by itself (Path=/auth); a script cannot read or set it. */
  cookie?: Header<"Cookie">;
}

export interface RefreshResponse {
  /** A new login token for `Authorization: Bearer <token>`. */
  token: string;
  expiresAt: Date;
  /** The session's next refresh token, replacing the one sent; absent when another tab's refresh just replaced it. */
  refreshCookie?: Header<"Set-Cookie">;
}

export interface LogoutRequest {
  cookie?: Header<"Cookie">;
}

export interface LogoutResponse {
  /** Makes the browser drop the refresh cookie. */
  refreshCookie?: Header<"Set-Cookie">;
}

const signedOut = "not signed in: log in with your password";

/**
 * Answers a new login token for the session of the refresh cookie, and rotates the cookie:
 * each refresh token works once. Public (the caller's login token may have ended; the cookie
 * is the credential).
 *
 * - No cookie, an unknown one, or one of a session that has ended (signed out, revoked,
 *   unused for SESSION_IDLE_DAYS, older than SESSION_MAX_DAYS, or ended by a password change,
 *   a disabling or "sign out everywhere"): 401 unauthenticated.
 * - A token replaced less than 30 seconds ago (two tabs refreshing at once send the same
 *   cookie): a login token, and no new cookie, since the other tab's answer set it.
 * - A token replaced longer ago: someone is using a copy of it, the owner or a thief; the
 *   whole session ends, the thief's newer token with it, and the answer is 401.
 */
export const refresh = api(
  // sensitive: the request and the answer hold refresh tokens.
  { expose: true, method: "POST", path: "/auth/refresh", sensitive: true },
  async ({ cookie }: RefreshRequest): Promise<RefreshResponse> => {
    const presented = refreshTokenIn(cookie);
    if (!presented) throw APIError.unauthenticated(signedOut);
    const next = newRefreshToken();
    const result = await users.refreshSession({
      tokenHash: hashRefreshToken(presented),
      newTokenHash: next.hash,
      idleSeconds: sessionConfig.idleSeconds,
      graceSeconds: sessionConfig.graceSeconds,
    });
    if ((result.outcome !== "rotated" && result.outcome !== "grace") || !result.owner) throw APIError.unauthenticated(signedOut);
    const issued = await issueToken(result.owner);
    return result.outcome === "rotated" ? { ...issued, refreshCookie: refreshCookie(next.token, sessionConfig.maxSeconds) } : issued;
  },
);

/**
 * Signs this browser out: ends the session of the refresh cookie (its login token is refused
 * from the next request, on every instance) and clears the cookie. Public, and the same
 * answer with no cookie or one of a session already ended: signing out twice is no error.
 */
export const logout = api(
  { expose: true, method: "POST", path: "/auth/logout", sensitive: true },
  async ({ cookie }: LogoutRequest): Promise<LogoutResponse> => {
    const presented = refreshTokenIn(cookie);
    if (presented) await users.endSession({ tokenHash: hashRefreshToken(presented) });
    return { refreshCookie: clearedRefreshCookie() };
  },
);
