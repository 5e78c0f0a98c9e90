// The refresh token's cookie: what it is called, how it is set and cleared, and how it is
// found among a request's cookies.
import { createHash, randomBytes } from "node:crypto";
import { appMeta } from "encore.dev";

/** Not `__Host-`: that prefix demands Path=/, and the cookie goes only to /auth. */
export const refreshCookieName = "refresh_token";

/**
 * Only /auth/refresh and /auth/logout read it, so only they get it: no other request (the
 * short links, every API call) carries it, or could leak it into a log.
 */
const cookiePath = "/auth";

/** 32 random bytes, base64url: 256 bits nobody can guess. */
const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** Secure when the app is served over https, as it is in production: the cookie never travels in clear. */
const secure = appMeta().apiBaseUrl.startsWith("https:");

export interface NewRefreshToken {
  token: string;
  hash: string;
}

export function newRefreshToken(): NewRefreshToken {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashRefreshToken(token) };
}

/** SHA-256, hex: as for API keys (access/api-key.ts), 256 random bits need no slow hash, and a hash found by an index. */
export function hashRefreshToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Set-Cookie for a refresh token: HttpOnly (no script reads it), SameSite=Strict (no other
 * site's page sends it), Path=/auth, Secure over https, and kept by the browser for
 * `maxAgeSeconds` (the session's absolute lifetime; the server decides the idle end).
 */
export function refreshCookie(token: string, maxAgeSeconds: number): string {
  return `${refreshCookieName}=${token}; Max-Age=${maxAgeSeconds}; Path=${cookiePath}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/** Set-Cookie that makes the browser drop the cookie. */
export function clearedRefreshCookie(): string {
  return `${refreshCookieName}=; Max-Age=0; Path=${cookiePath}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

/** The refresh token in a Cookie header; undefined when there is none of the right shape. */
export function refreshTokenIn(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  for (const pair of cookieHeader.split(";")) {
    const eq = pair.indexOf("=");
    if (eq < 0 || pair.slice(0, eq).trim() !== refreshCookieName) continue;
    const value = pair.slice(eq + 1).trim();
    if (tokenPattern.test(value)) return value;
  }
  return undefined;
}
