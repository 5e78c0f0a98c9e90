// How long sign-ins last, from the environment, read and checked once at start.
import { secondsSetting, wholeNumberSetting } from "../../limits/limiter/env";

type Env = Readonly<Record<string, string | undefined>>;

export interface SessionConfig {
  /** A login token's lifetime: short, since only a signed-out session ends one before it. */
  readonly tokenSeconds: number;
  /** A session unused this long ends (sliding: each refresh moves it on). */
  readonly idleSeconds: number;
  /** A session ends this long after sign-in however much it is used: the password is asked again. */
  readonly maxSeconds: number;
  /**
   * How long a refresh token just replaced is still answered (a login token, no new refresh
   * token): two tabs of one browser that refresh at the same moment both send it, and the
   * second must not be taken for a thief. Past it, presenting it again ends the session.
   */
  readonly graceSeconds: number;
}

const day = 24 * 3600;

export function parseSessionConfig(env: Env): SessionConfig {
  const tokenSeconds = secondsSetting(env, "LOGIN_TOKEN_SECONDS", 3600, day);
  const idleDays = wholeNumberSetting(env, "SESSION_IDLE_DAYS", 14, 1, 365);
  const maxDays = wholeNumberSetting(env, "SESSION_MAX_DAYS", 90, 1, 3650);
  if (maxDays < idleDays) {
    throw new Error(`invalid configuration: SESSION_MAX_DAYS (${maxDays}) must be at least SESSION_IDLE_DAYS (${idleDays})`);
  }
  return Object.freeze({ tokenSeconds, idleSeconds: idleDays * day, maxSeconds: maxDays * day, graceSeconds: 30 });
}

/** This process's settings. */
export const sessionConfig: SessionConfig = parseSessionConfig(process.env);
