// The budget of failed API-key lookups, over all clients: a signal to programs that send
// keys that do not exist, never a refusal of a key that does.
//
// A key is 256 random bits, so guessing one is hopeless; what a flood of unknown keys costs
// is one read per request by a unique index (users/keys/key-store.ts resolve), the cost of
// GET /:code/stats for a code nobody has. Every well-formed key is looked up first, so a
// key that exists is answered whatever other clients send, right after a restart too, with
// nothing remembered in memory. Only a lookup that found nothing counts; past
// API_KEY_FAILURES_PER_MINUTE (600) in a minute, such a lookup answers 429 with Retry-After
// instead of 401 until the minute is over, which tells a program retrying a revoked key, or
// a guesser, to slow down.
//
// The budget counts no address. The auth handler cannot know one: it would have to declare
// X-Forwarded-For, which makes Encore run it for every request behind a proxy (the redirect
// included; 40–45k redirects a second without, 14.5–17k with, measured with wrk), and, as
// in Encore, currentRequest() is undefined while it runs. A budget over all clients that
// refused lookups would let anyone lock every program out (what this file did before); one
// that refuses only failures cannot: there is no budget one client can spend for another.
//
// The count is shared by every instance through Redis when REDIS_URL is set
// (limiter/limiter.ts), each instance's own otherwise.
import { limitSetting } from "./limiter/env";
import { Limiter, tooManyRequests } from "./limiter/limiter";
import type { RedisOption } from "./limiter/redis";

const windowSeconds = 60;

export interface ApiKeyLimitsConfig {
  /** Failed key lookups all clients together may cause in a minute before they answer 429; null: no limit. */
  readonly failuresPerMinute: number | null;
}

export function parseApiKeyLimits(env: Readonly<Record<string, string | undefined>>): ApiKeyLimitsConfig {
  return Object.freeze({ failuresPerMinute: limitSetting(env, "API_KEY_FAILURES_PER_MINUTE", 600) });
}

/** The count of failed lookups in the current minute. */
export class ApiKeyLimits {
  readonly #failures: Limiter | null;

  constructor(config: ApiKeyLimitsConfig, redis?: RedisOption) {
    this.#failures =
      config.failuresPerMinute === null
        ? null
        : new Limiter({ name: "apikeys", points: config.failuresPerMinute, durationSeconds: windowSeconds, redis });
  }

  /**
   * A lookup found no key in force (unknown, revoked, expired, or of a disabled account):
   * counted. Past the budget it throws 429 resource_exhausted (with retryAfterSeconds);
   * otherwise the caller answers 401 as for any bad credential.
   */
  async failed(): Promise<void> {
    if (this.#failures === null) return;
    const { consumed, msBeforeNext } = await this.#failures.add("failures");
    if (consumed > this.#failures.points) throw tooManyRequests("too many failed API key attempts", msBeforeNext);
  }
}
