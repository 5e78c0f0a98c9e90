// Limits on opening accounts (the users service's POST /users), per client address.
import { limitSetting, secondsSetting } from "./limiter/env";
import { Limiter, refusedPast } from "./limiter/limiter";
import type { RedisOption } from "./limiter/redis";

type Env = Readonly<Record<string, string | undefined>>;

export interface SignupLimitsConfig {
  /** Sign-ups an address may make per window; null: no limit. */
  readonly perAddress: number | null;
  readonly windowSeconds: number;
}

/**
 * Defaults: 20 sign-ups per address in an hour. A household, an office or a class behind
 * one address opens a few accounts in an hour, not 20; a script opening accounts gets 20
 * an hour rather than hundreds a minute, each of which costs a 32 MiB scrypt hash and a
 * row. More accounts buy an address no more links (signed-in requests also count on
 * their address, links.ts). An hour, not a day: a blocked address shared by honest
 * people waits at most an hour.
 */
export function parseSignupLimits(env: Env): SignupLimitsConfig {
  return Object.freeze({
    perAddress: limitSetting(env, "SIGNUP_LIMIT_PER_ADDRESS", 20),
    windowSeconds: secondsSetting(env, "SIGNUP_LIMIT_WINDOW_SECONDS", 3600, 7 * 24 * 3600),
  });
}

/** The counter of sign-ups; one per process, or several in tests (each on its own Redis prefix). */
export class SignupLimits {
  readonly config: SignupLimitsConfig;
  readonly #byAddress: Limiter | null;

  constructor(config: SignupLimitsConfig, redis?: RedisOption) {
    this.config = config;
    this.#byAddress =
      config.perAddress === null ? null : new Limiter({ name: "signups:address", points: config.perAddress, durationSeconds: config.windowSeconds, redis });
  }

  /**
   * Counts one sign-up from `address` (an address key, limits/address.ts); throws 429
   * resource_exhausted (with retryAfterSeconds) over the limit. No address (a call from
   * another service) is not counted.
   */
  async count(address: string | undefined): Promise<void> {
    const byAddress = this.#byAddress;
    if (address === undefined || byAddress === null) return;
    await refusedPast("too many accounts opened from this address", () => byAddress.consume(address));
  }

  /** Gives back a sign-up counted for `address` that the server could not serve. */
  async takeBack(address: string | undefined): Promise<void> {
    if (address !== undefined) await this.#byAddress?.takeBack(address);
  }
}

/** The app's sign-up limits, from the environment at start. */
export const signupLimits = new SignupLimits(parseSignupLimits(process.env));
