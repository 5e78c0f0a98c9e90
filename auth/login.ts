import { api, APIError, type Header } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { users } from "~encore/clients";
import { addressKey } from "../limits/address";
import { LoginLimits, parseLoginLimits } from "../limits/logins";
import { issueToken } from "./jwt/tokens";
import { startSession } from "./sessions/start";

export interface LoginRequest {
  email: string & MaxLen<254>;
  password: string & MaxLen<256>;
  /**
   * The client's address. The runtime sets it from the connection, replacing what the
   * client sent, unless it runs behind a trusted proxy (TRUST_PROXY=on), which sets it.
   */
  forwardedFor?: Header<"X-Forwarded-For">;
  /** The browser, kept with the session so its owner can tell sessions apart. */
  userAgent?: Header<"User-Agent">;
}

export interface LoginResponse {
  /** A JWT to send as `Authorization: Bearer <token>`. */
  token: string;
  expiresAt: Date;
  /**
   * The session's refresh token, as an HttpOnly cookie for /auth (auth/sessions/cookie.ts):
   * a browser keeps it and gets the next login token from POST /auth/refresh. Not in the
   * JSON body, which stays `{token, expiresAt}`; a program may ignore it.
   */
  refreshCookie?: Header<"Set-Cookie">;
}

/** The limits on attempts, from the environment at start; the rules are in limits/logins.ts. */
const loginLimits = new LoginLimits(parseLoginLimits(process.env));

const badCredentials = "invalid email or password";

/**
 * Logs in with an email and password and answers with a token, and starts a session whose
 * refresh token comes as a cookie (auth/refresh.ts says how it is used). Public.
 *
 * A wrong password and an unknown email get the same error, and take the same time
 * (the users service spends the same scrypt work on both). Attempts are limited so that
 * a guesser is slowed down and the owner is not locked out (limits/logins.ts): past a
 * limit, 429 resource_exhausted with details.retryAfterSeconds.
 *
 * An account a moderator disabled is 403 permission_denied "account disabled", said only
 * once the password is right: its owner learns why, a guesser learns nothing more than
 * from any wrong password. So is an account whose email the instance requires verified
 * (EMAIL_VERIFICATION=on) and is not: 400 failed_precondition, details.reason "email_unverified".
 */
export const login = api(
  // sensitive: the request holds a password, which must not reach traces or logs.
  { expose: true, method: "POST", path: "/auth/login", sensitive: true },
  async ({ email, password, forwardedFor, userAgent }: LoginRequest): Promise<LoginResponse> => {
    const emailKey = email.trim().toLowerCase();
    // No address: a call from another service that passed none; such calls share one budget.
    const attempt = await loginLimits.begin(addressKey(forwardedFor) ?? "unknown", emailKey);
    let verified: Awaited<ReturnType<typeof users.verifyCredentials>>;
    try {
      verified = await users.verifyCredentials({ email: email.trim(), password });
    } catch (err) {
      await attempt.notChecked();
      throw err;
    }
    const { user, disabled } = verified;
    if (disabled) {
      // The password was right: not a guess, so it costs the address nothing.
      await attempt.notChecked();
      throw APIError.permissionDenied("account disabled");
    }
    if (verified.unverified) {
      await attempt.notChecked(); // the password was right, as for a disabled account
      throw APIError.failedPrecondition("verify your email first: follow the link mailed to you, or ask for a new one").withDetails({ reason: "email_unverified" });
    }
    if (!user) {
      await attempt.failed();
      throw APIError.unauthenticated(badCredentials);
    }
    await attempt.succeeded();
    const session = await startSession(user, userAgent);
    return { ...(await issueToken({ ...user, sessionID: session.sessionID })), refreshCookie: session.cookie };
  },
);
