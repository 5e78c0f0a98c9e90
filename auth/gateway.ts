import { APIError, Gateway, type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";
import { users } from "~encore/clients";
import { isAdminEmail } from "../access/admin-emails";
import { apiKeyMarker, isWellFormedApiKey } from "../access/api-key";
import { apiKeyScopes, type ApiKeyScope, type Credential } from "../access/scopes";
import { ApiKeyLimits, parseApiKeyLimits } from "../limits/api-keys";
import { verifyToken } from "./jwt/tokens";

/**
 * Authorization, and X-API-Key, and nothing else: Encore runs the auth handler for every
 * request that carries any of its parameters. X-API-Key is sent only by programs that
 * mean to sign in. Declaring X-Forwarded-For (for a limit per client address) made the
 * handler run for every request behind a proxy, which adds that header to all of them:
 * the short-link redirect GET /:code went from 40–45k to 14.5–17k requests a second (wrk,
 * TRUST_PROXY=on, a cached link). Nor can the handler learn the address another way: as in
 * Encore, currentRequest() is undefined while it runs. limits/api-keys.ts says what limits
 * API keys instead. A request with neither header never reaches the handler: the runtime
 * answers it as anonymous, or "endpoint requires auth but none provided".
 */
export interface AuthParams {
  /** `Bearer <token>`: the token from POST /auth/login, or an API key (`usk_…`) from POST /me/api-keys. */
  authorization?: Header<"Authorization">;
  /** An API key (`usk_…`) alone, as Kutt and Shlink take it; not with Authorization. */
  apiKey?: Header<"X-API-Key">;
}

/** What endpoints see of the caller, through getAuthData() from ~encore/auth. */
export interface AuthData {
  userID: string;
  email: string;
  /** Whether the account's email is in ADMIN_EMAILS (access/admin-emails.ts); an API key never acts as one (access/scopes.ts). */
  admin: boolean;
  /** How the caller signed in: a login token, or an API key. */
  credential: Credential;
  /** What the caller may do with links and analytics: a key's scopes; every scope for a login token. */
  scopes: ApiKeyScope[];
  /** For an API key, the one workspace it acts in; absent for a login token, which acts in all the account's. */
  workspaceId?: string;
  /** The account's credentials version the caller signed in under (users/accounts/user-store.ts). */
  credentialsVersion: number;
  /** The session of a login token from POST /auth/login or /auth/refresh; absent for API keys. */
  sessionID?: string;
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

/**
 * The account of a login token in force, as it is now; null for a bad token, a deleted or
 * disabled account, a token of a session signed out or revoked, or a token issued before
 * the account's password last changed (or it was last disabled, or signed out everywhere):
 * its credentials version is older than the account's. One read answers all of it.
 */
async function tokenCaller(token: string): Promise<AuthData | null> {
  const claims = await verifyToken(token);
  if (!claims) return null;
  const { sessionID } = claims;
  const { account } = await users.activeAccount({ id: claims.userID, ...(sessionID && { sessionID }) });
  if (!account || account.credentialsVersion !== claims.credentialsVersion) return null;
  const { userID, email, credentialsVersion } = account;
  return { userID, email, admin: isAdminEmail(email), credential: "login", scopes: [...apiKeyScopes], credentialsVersion, ...(sessionID && { sessionID }) };
}

/**
 * The account of an API key, looked up on every request so that a revoked key, an expired
 * one or one of a disabled account is refused at once on every instance. A malformed key
 * is refused without a lookup and counts nothing. Every well-formed key is looked up (one
 * read by a unique index), so a key that exists is answered whatever others send; a lookup
 * that finds nothing counts against the budget, and past it is 429 (limits/api-keys.ts).
 */
async function keyCaller(key: string): Promise<AuthData | null> {
  if (!isWellFormedApiKey(key)) return null;
  const { owner } = await users.resolveApiKey({ key });
  if (!owner) {
    await apiKeyLimits.failed();
    return null;
  }
  const { userID, email, scopes, workspaceId, credentialsVersion } = owner;
  return { userID, email, admin: false, credential: "api-key", scopes, workspaceId, credentialsVersion };
}

/**
 * Checks the credential of a request: `Authorization: Bearer` with a valid HS256 JWT from
 * this app in force or an API key in force, or `X-API-Key` with an API key in force;
 * either way of an account that exists and is not disabled (asked of the users service,
 * whose database this service never reads). Anything else is `unauthenticated`; both
 * headers at once, `invalid_argument`; failed key lookups past their budget, 429
 * `resource_exhausted`.
 */
export const auth = authHandler<AuthParams, AuthData>(async ({ authorization, apiKey }) => {
  if (authorization !== undefined && apiKey !== undefined) {
    throw APIError.invalidArgument("send a credential in Authorization or in X-API-Key, not both");
  }
  const token = apiKey !== undefined ? apiKey.trim() : bearerToken(authorization ?? "");
  if (!token || token.length > maxTokenLength) throw APIError.unauthenticated(invalidToken);
  const caller = token.startsWith(apiKeyMarker) ? await keyCaller(token) : apiKey === undefined ? await tokenCaller(token) : null;
  if (!caller) throw APIError.unauthenticated(invalidToken);
  return caller;
});

export const gateway = new Gateway({ authHandler: auth });
