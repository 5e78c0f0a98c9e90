import { APIError, Gateway, type Header } from "encore.dev/api";
import { authHandler } from "encore.dev/auth";
import { users } from "~encore/clients";
import { adminEmails } from "./config";
import { verifyToken } from "./jwt/tokens";

export interface AuthParams {
  /** `Bearer <token>`, the token from POST /auth/login. */
  authorization: Header<"Authorization">;
}

/** What endpoints see of the caller, through getAuthData() from ~encore/auth. */
export interface AuthData {
  userID: string;
  email: string;
  /** Whether the account's email is in ADMIN_EMAILS: it may use the moderation endpoints (/admin/...). */
  admin?: boolean;
}

// One message for every way a token can be wrong: which check failed is of use only to
// someone forging tokens.
const invalidToken = "invalid or expired token";

/** Longer than any token this app issues; refused before any parsing or cryptography. */
const maxTokenLength = 4096;

/** The token of an `Authorization: Bearer <token>` value (the scheme in any case); null for anything else. */
function bearerToken(authorization: string | undefined): string | null {
  const match = /^Bearer +(\S+)$/i.exec(authorization?.trim() ?? "");
  const token = match?.[1];
  return token && token.length <= maxTokenLength ? token : null;
}

/**
 * Checks the bearer token of a request: a valid HS256 JWT from this app, in force,
 * of a user that still exists (asked of the users service, whose database this service
 * never reads). Anything else is `unauthenticated`.
 */
export const auth = authHandler<AuthParams, AuthData>(async ({ authorization }) => {
  const token = bearerToken(authorization);
  const claims = token ? await verifyToken(token) : null;
  if (!claims) throw APIError.unauthenticated(invalidToken);
  const { exists } = await users.userExists({ id: claims.userID });
  if (!exists) throw APIError.unauthenticated(invalidToken);
  return { userID: claims.userID, email: claims.email, admin: adminEmails.has(claims.email.toLowerCase()) };
});

export const gateway = new Gateway({ authHandler: auth });
