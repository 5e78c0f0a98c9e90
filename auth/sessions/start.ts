import { APIError } from "encore.dev/api";
import { users } from "~encore/clients";
import { sessionConfig } from "./config";
import { newRefreshToken, refreshCookie } from "./cookie";

/** The longest User-Agent kept: enough to name a browser, a bound on what a login stores. */
const maxUserAgentLength = 256;

/**
 * Starts a session for an account whose password was just checked: its id, for the login
 * token, and the cookie that carries its refresh token. A password change between the check
 * and now ends the sign-in: 401, as for any token of before the change.
 */
export async function startSession(
  user: { userID: string; credentialsVersion: number },
  userAgent: string | undefined,
): Promise<{ sessionID: string; cookie: string }> {
  const { token, hash } = newRefreshToken();
  const agent = userAgent?.trim().slice(0, maxUserAgentLength);
  const { sessionID } = await users.startSession({
    userID: user.userID,
    credentialsVersion: user.credentialsVersion,
    tokenHash: hash,
    ...(agent && { userAgent: agent }),
    idleSeconds: sessionConfig.idleSeconds,
    maxSeconds: sessionConfig.maxSeconds,
  });
  if (sessionID === null) throw APIError.unauthenticated("invalid or expired token");
  return { sessionID, cookie: refreshCookie(token, sessionConfig.maxSeconds) };
}
