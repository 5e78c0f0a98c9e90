import { api, APIError, type Header } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { users } from "~encore/clients";
import { RateLimiter } from "./rate-limiter";
import { issueToken } from "./tokens";

export interface LoginRequest {
  email: string & MaxLen<254>;
  password: string & MaxLen<256>;
  /**
   * The client's address. The runtime sets it from the connection, replacing what the
   * client sent, unless it runs behind a trusted proxy (TRUST_PROXY=on), which sets it.
   */
  forwardedFor?: Header<"X-Forwarded-For">;
}

export interface LoginResponse {
  /** A JWT to send as `Authorization: Bearer <token>`. */
  token: string;
  expiresAt: Date;
}

const window15Minutes = 15 * 60 * 1000;

// Both limits are counted in memory by each instance (see RateLimiter): n instances
// behind a load balancer allow up to n times as many attempts.

/** At most 5 failed logins per email (lower-cased) in any 15 minutes: slows password guessing for one account. */
const failuresByEmail = new RateLimiter({ limit: 5, windowMs: window15Minutes, maxKeys: 50_000 });
/** At most 20 logins per client address in any 15 minutes: slows one client trying many accounts. */
const attemptsByAddress = new RateLimiter({ limit: 20, windowMs: window15Minutes, maxKeys: 50_000 });

/** An address header is the client's to write behind a proxy: its length must not decide our memory use. */
const maxAddressKeyLength = 256;

const badCredentials = "invalid email or password";

/**
 * Logs in with an email and password and answers with a token. Public.
 *
 * A wrong password and an unknown email get the same error, and take the same time
 * (the users service spends the same scrypt work on both).
 */
export const login = api(
  // sensitive: the request holds a password, which must not reach traces or logs.
  { expose: true, method: "POST", path: "/auth/login", sensitive: true },
  async ({ email, password, forwardedFor }: LoginRequest): Promise<LoginResponse> => {
    const emailKey = email.trim().toLowerCase();
    const addressKey = forwardedFor?.trim().slice(0, maxAddressKeyLength) || "unknown";
    const waitMs = Math.max(failuresByEmail.retryAfterMs(emailKey), attemptsByAddress.retryAfterMs(addressKey));
    if (waitMs > 0) {
      throw APIError.resourceExhausted(`too many login attempts; try again in ${Math.ceil(waitMs / 1000)} seconds`);
    }
    // Counted as a failure before the check, and cleared on success: concurrent guesses
    // all count, so a burst cannot slip more than 5 past the limit.
    attemptsByAddress.hit(addressKey);
    failuresByEmail.hit(emailKey);
    const { user } = await users.verifyCredentials({ email: email.trim(), password });
    if (!user) throw APIError.unauthenticated(badCredentials);
    failuresByEmail.reset(emailKey);
    return issueToken(user);
  },
);
