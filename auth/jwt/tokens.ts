import { errors, jwtVerify, SignJWT } from "jose";
import { jwtKey } from "../config";
import { sessionConfig } from "../sessions/config";

/** Who issues tokens, and for whom: a token made for another app with the same key is refused. */
export const tokenIssuer = "url-shortener/auth";
export const tokenAudience = "url-shortener/api";
/**
 * Short-lived (an hour unless LOGIN_TOKEN_SECONDS says otherwise): a browser gets the next
 * from its session's refresh token. Signed-out sessions and deleted users are refused at once regardless.
 */
export const tokenLifetimeSeconds = sessionConfig.tokenSeconds;
/** Allowed skew between the clocks of the instance that issued a token and the one checking it. */
export const clockToleranceSeconds = 30;

export interface TokenClaims {
  userID: string;
  email: string;
  /** The account's credentials version when the token was issued: a password change raises it, ending the token. */
  credentialsVersion: number;
  /** The session it was issued for (POST /auth/login, /auth/refresh); tokens from before sessions existed have none. */
  sessionID?: string;
}

/**
 * The claim that carries the credentials version. Tokens issued before it existed have none,
 * and count as version 0, every account's until its first password change.
 */
const credentialsVersionClaim = "cv";
/** The claim that carries the session's id. */
const sessionClaim = "sid";

export interface IssuedToken {
  token: string;
  expiresAt: Date;
}

/** A signed HS256 token for `user`, valid from `now` for `tokenLifetimeSeconds`. */
export async function issueToken(user: TokenClaims, now: Date = new Date()): Promise<IssuedToken> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expiresAt = issuedAt + tokenLifetimeSeconds;
  const claims = { email: user.email, [credentialsVersionClaim]: user.credentialsVersion, ...(user.sessionID && { [sessionClaim]: user.sessionID }) };
  const token = await new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(user.userID)
    .setIssuer(tokenIssuer)
    .setAudience(tokenAudience)
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt)
    .setExpirationTime(expiresAt)
    .sign(jwtKey);
  return { token, expiresAt: new Date(expiresAt * 1000) };
}

/**
 * The claims of a token this app issued and that is in force; null for anything else:
 * malformed, another algorithm (`none` included: the algorithm is pinned, never taken
 * from the token), a bad signature, altered claims, expired, not yet valid, or made for
 * another issuer or audience.
 */
export async function verifyToken(token: string): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, jwtKey, {
      algorithms: ["HS256"],
      typ: "JWT",
      issuer: tokenIssuer,
      audience: tokenAudience,
      clockTolerance: clockToleranceSeconds,
      requiredClaims: ["sub", "iat", "nbf", "exp"],
    });
    const version = payload[credentialsVersionClaim] ?? 0;
    const session = payload[sessionClaim];
    if (typeof payload.sub !== "string" || typeof payload["email"] !== "string" || !Number.isSafeInteger(version)) return null;
    if (session !== undefined && typeof session !== "string") return null;
    return { userID: payload.sub, email: payload["email"], credentialsVersion: version as number, ...(session !== undefined && { sessionID: session }) };
  } catch (err) {
    if (err instanceof errors.JOSEError) return null;
    throw err;
  }
}
