import { APIError, Gateway, type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";
import { users } from "~encore/clients";
import { ApiKeyLimits, parseApiKeyLimits } from "../limits/api-keys";
import { apiKeyMarker, hashApiKey, isWellFormedApiKey } from "../users/keys/api-key";
import { isAdminEmail } from "./admin-emails";
import { verifyToken } from "./jwt/tokens";

/**
 * Only the Authorization header, and nothing else: Encore runs the auth handler for every
 * request that carries any of its parameters. Declaring X-Forwarded-For (for a limit per
 * client address) made it run for every request behind a proxy, which adds that header to
 * all of them: the short-link redirect GET /:code went from 40–45k to 14.5–17k requests a
 * second (wrk, TRUST_PROXY=on, a cached link). The limit on API keys needs no address
 * (limits/api-keys.ts). A request without Authorization never reaches the handler: the
 * runtime answers it as anonymous, or "endpoint requires auth but none provided".
 */
export interface AuthParams {
  /** `Bearer <token>`: the token from POST /auth/login, or an API key (`usk_…`) from POST /me/api-keys. */
  authorization: Header<"Authorization">;
}

/** What endpoints see of the caller, through getAuthData() from ~encore/auth. */
export interface AuthData {
  userID: string;
  email: string;
  /** Whether the account's email is in ADMIN_EMAILS (auth/config.ts). */
  admin: boolean;
}

// One message for every way a token or key can be wrong: which check failed is of use
// only to someone forging tokens or guessing keys.
const invalidToken = "invalid or expired token";

/** Longer than any token this app issues; refused before any parsing or cryptography. */
const maxTokenLength = 4096;

/** The budget of failed key lookups, from the environment at start (limits/api-keys.ts). */
const apiKeyLimits = new ApiKeyLimits(parseApiKeyLimits(process.env));

/** The token of an `Authorization: Bearer <token>` value (the scheme in any case); null for anything else. */
function bearerToken(authorization: string): string | null {
  const match = /^Bearer +(\S+)$/i.exec(authorization.trim());
  const token = match?.[1];
  return token && token.length <= maxTokenLength ? token : null;
}

/** The account of a login token in force, as it is now; null for a bad token, or a deleted or disabled account. */
async function tokenAccount(token: string): Promise<{ userID: string; email: string } | null> {
  const claims = await verifyToken(token);
  if (!claims) return null;
  return (await users.activeAccount({ id: claims.userID })).account;
}

/**
 * The account of an API key, looked up on every request so that a revoked key, an expired
 * one or one of a disabled account is refused at once on every instance. A malformed key
 * is refused without a lookup and counts nothing: it costs nothing. Failed lookups count
 * against the budget; past it, 429 before any lookup, unless the key worked here lately.
 */
async function keyAccount(key: string): Promise<{ userID: string; email: string } | null> {
  if (!isWellFormedApiKey(key)) return null;
  const digest = hashApiKey(key);
  await apiKeyLimits.check(digest);
  const account = (await users.resolveApiKey({ key })).user;
  if (account) apiKeyLimits.succeeded(digest);
  else await apiKeyLimits.failed(digest);
  return account;
}

/**
 * Checks the bearer credential of a request: a valid HS256 JWT from this app, in force,
 * or an API key in force; either way of an account that exists and is not disabled (asked
 * of the users service, whose database this service never reads). Anything else is
 * `unauthenticated`; an API key past the budget of failed lookups, 429 `resource_exhausted`.
 */
export const auth = authHandler<AuthParams, AuthData>(async ({ authorization }) => {
  const token = bearerToken(authorization);
  if (!token) throw APIError.unauthenticated(invalidToken);
  const account = token.startsWith(apiKeyMarker) ? await keyAccount(token) : await tokenAccount(token);
  if (!account) throw APIError.unauthenticated(invalidToken);
  return { userID: account.userID, email: account.email, admin: isAdminEmail(account.email) };
});

export const gateway = new Gateway({ authHandler: auth });
