// The limit on failed API-key attempts per client address, against guessing keys.
//
// A key is 256 random bits, so guessing one is hopeless; the limit keeps a client that
// tries (or a program stuck on a revoked key) from costing a database lookup per attempt
// for ever. Past API_KEY_FAILURES_PER_ADDRESS failures (100) in an hour, every key attempt
// from that address is 429 until the hour is over. Only failures count, so honest
// programs behind one address are never stopped by their own traffic. Shared through
// Redis when REDIS_URL is set (limiter/limiter.ts); an address is its /64 for IPv6
// (address.ts).
//
// Unlike logins, an attempt is not counted before it is checked: a valid key then costs a
// single read of the counter, not a count and a take-back. Attempts in flight at the same
// moment can each pass the check, so a burst may overshoot the limit by its own size;
// that bounds nothing that matters for keys nobody can guess.
import { limitSetting } from "./limiter/env";
import { Limiter, tooManyRequests } from "./limiter/limiter";
import type { RedisOption } from "./limiter/redis";

const windowSeconds = 3600;

export interface ApiKeyLimitsConfig {
  /** Failed key attempts an address may make in an hour; null: no limit. */
  readonly failuresPerAddress: number | null;
}

export function parseApiKeyLimits(env: Readonly<Record<string, string | undefined>>): ApiKeyLimitsConfig {
  return Object.freeze({ failuresPerAddress: limitSetting(env, "API_KEY_FAILURES_PER_ADDRESS", 100) });
}

export class ApiKeyLimits {
  readonly #failures: Limiter | null;

  constructor(config: ApiKeyLimitsConfig, redis?: RedisOption) {
    this.#failures =
      config.failuresPerAddress === null
        ? null
        : new Limiter({ name: "apikeys:address", points: config.failuresPerAddress, durationSeconds: windowSeconds, redis });
  }

  /** Throws 429 resource_exhausted (with retryAfterSeconds) when `address` has used up its failures. */
  async check(address: string): Promise<void> {
    if (this.#failures === null) return;
    const state = await this.#failures.get(address);
    if (state !== null && state.consumed >= this.#failures.points) {
      throw tooManyRequests("too many failed API key attempts from this address", state.msBeforeNext);
    }
  }

  /** Counts a failed attempt from `address`. */
  async failed(address: string): Promise<void> {
    await this.#failures?.add(address);
  }
}
