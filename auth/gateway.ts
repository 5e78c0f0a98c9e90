import { APIError, Gateway, type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";
import { users } from "~encore/clients";
import { ApiKeyLimits, parseApiKeyLimits } from "../limits/api-keys";
import { addressKey } from "../limits/address";
import { apiKeyMarker, isWellFormedApiKey } from "../users/keys/api-key";
import { isAdminEmail } from "./admin-emails";
import { verifyToken } from "./jwt/tokens";

export interface AuthParams {
  /** `Bearer <token>`: the token from POST /auth/login, or an API key (`usk_…`) from POST /me/api-keys. */
  authorization?: Header<"Authorization">;
  /**
   * The client's address, for the limit on failed API-key attempts. The runtime sets it
   * from the connection, replacing what the client sent, unless it runs behind a trusted
   * proxy (TRUST_PROXY=on), which sets it.
   */
  forwardedFor?: Header<"X-Forwarded-For">;
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

/** The limit on failed key attempts per address, from the environment at start (limits/api-keys.ts). */
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
 * one or one of a disabled account is refused at once on every instance. Failures count
 * against the client's address; past the limit, 429 before any lookup.
 */
async function keyAccount(key: string, forwardedFor: string | undefined): Promise<{ userID: string; email: string } | null> {
  // No address: a request the runtime did not give one; such requests share one budget.
  const address = addressKey(forwardedFor) ?? "unknown";
  await apiKeyLimits.check(address);
  const account = isWellFormedApiKey(key) ? (await users.resolveApiKey({ key })).user : null;
  if (!account) await apiKeyLimits.failed(address);
  return account;
}

/**
 * Checks the bearer credential of a request: a valid HS256 JWT from this app, in force,
 * or an API key in force; either way of an account that exists and is not disabled (asked
 * of the users service, whose database this service never reads). Anything else is
 * `unauthenticated`; too many failed API keys from one address, 429 `resource_exhausted`.
 */
export const auth = authHandler<AuthParams, AuthData>(async ({ authorization, forwardedFor }) => {
  // Declaring X-Forwarded-For makes the handler run for requests that carry that header and
  // no credentials (every request behind a proxy): they are answered as the runtime answers
  // a request without credentials, anonymous on a public endpoint.
  if (authorization === undefined) throw APIError.unauthenticated("endpoint requires auth but none provided");
  const token = bearerToken(authorization);
  if (!token) throw APIError.unauthenticated(invalidToken);
  const account = token.startsWith(apiKeyMarker) ? await keyAccount(token, forwardedFor) : await tokenAccount(token);
  if (!account) throw APIError.unauthenticated(invalidToken);
  return { userID: account.userID, email: account.email, admin: isAdminEmail(account.email) };
});

export const gateway = new Gateway({ authHandler: auth });
