// Limits on asking for password resets (the users service's POST /password-reset).
import { limitSetting, secondsSetting } from "./limiter/env";
import { Limiter, refusedPast, TooManyRequests } from "./limiter/limiter";
import type { RedisOption } from "./limiter/redis";

type Env = Readonly<Record<string, string | undefined>>;

export interface PasswordResetLimitsConfig {
  /** Requests an address may make per window; null: no limit. */
  readonly perAddress: number | null;
  readonly windowSeconds: number;
}

/**
 * Mails one email may be sent per window, whoever asks: fixed, since someone who forgot
 * their password asks once or twice, and anyone else asking for that email would fill the
 * person's inbox. A request past it is answered as any other and sends nothing, so the
 * answer still says nothing of whether the account exists.
 */
const mailsPerEmail = 3;

/**
 * Defaults: 10 requests per address in an hour. Someone locked out asks a few times; a
 * script asking for many emails from one address, to send them mail or to time the answers,
 * gets 10 an hour.
 */
export function parsePasswordResetLimits(env: Env): PasswordResetLimitsConfig {
  return Object.freeze({
    perAddress: limitSetting(env, "PASSWORD_RESET_LIMIT_PER_ADDRESS", 10),
    windowSeconds: secondsSetting(env, "PASSWORD_RESET_LIMIT_WINDOW_SECONDS", 3600, 7 * 24 * 3600),
  });
}

/** The counters of password resets; one per process. */
export class PasswordResetLimits {
  readonly config: PasswordResetLimitsConfig;
  readonly #byAddress: Limiter | null;
  readonly #byEmail: Limiter;

  constructor(config: PasswordResetLimitsConfig, redis?: RedisOption) {
    this.config = config;
    this.#byAddress =
      config.perAddress === null
        ? null
        : new Limiter({ name: "password-resets:address", points: config.perAddress, durationSeconds: config.windowSeconds, redis });
    this.#byEmail = new Limiter({ name: "password-resets:email", points: mailsPerEmail, durationSeconds: config.windowSeconds, redis });
  }

  /** Counts one request from `address`; 429 resource_exhausted past the limit. No address (another service's call) is not counted. */
  async count(address: string | undefined): Promise<void> {
    const byAddress = this.#byAddress;
    if (address === undefined || byAddress === null) return;
    await refusedPast("too many password resets asked from this address", () => byAddress.consume(address));
  }

  /** Whether one more mail may go to `email` in this window (counting it when so). */
  async mayMail(email: string): Promise<boolean> {
    try {
      await this.#byEmail.consume(email.toLowerCase());
      return true;
    } catch (err) {
      if (err instanceof TooManyRequests) return false;
      throw err;
    }
  }
}

/** The app's password-reset limits, from the environment at start. */
export const passwordResetLimits = new PasswordResetLimits(parsePasswordResetLimits(process.env));
