// The budget of failed API-key lookups, over all clients, against guessing keys and floods
// of garbage keys.
//
// A key is 256 random bits, so guessing one is hopeless; what a guesser (or a program
// stuck on a revoked key) can do is cost the users service a database lookup per
// attempt. Past API_KEY_FAILURES_PER_MINUTE failed lookups (600) in a minute, a key is
// looked up only if it worked on this instance within the last hour; any other gets 429
// until the minute is over, without a lookup. So however many clients send bad keys, they
// cost at most the budget's lookups a minute, and programs whose keys work keep working: a
// key first used during a flood waits for the minute to end.
//
// The budget counts no address. Counting per client address needed the auth handler to
// declare X-Forwarded-For, and Encore runs the handler for every request that carries any
// of its parameters: behind a proxy, which adds that header to every request, it ran for
// every request, the short-link redirect included (measured with wrk: 40–45k redirects a
// second without the header, 14.5–17k with it). See auth/gateway.ts.
//
// The budget is one counter, shared by every instance through Redis when REDIS_URL is set
// (limiter/limiter.ts), each instance's own otherwise. The keys known to work are each
// instance's own, in memory: a known key is still looked up on every request (the users
// service decides, so a revoked key is refused at once), it is only spared the budget.
//
// A lookup is not counted before it is made: a key that works costs no count and no
// take-back, and a known one not even a read of the counter. Lookups in flight at the same
// moment can each pass the check, so a burst may overshoot the budget by its own size.
import { LRUCache } from "lru-cache";
import { limitSetting } from "./limiter/env";
import { Limiter, tooManyRequests } from "./limiter/limiter";
import type { RedisOption } from "./limiter/redis";

const windowSeconds = 60;
/** How long a key that worked is spared the budget after its last success. */
const knownForMs = 3600_000;
/**
 * Keys that worked, remembered per instance: far more than the programs one instance
 * serves in an hour, and about 2 MB at most. Past it, the key unused the longest is
 * forgotten, and waits for the minute's end only if it comes back during a flood.
 */
const maxKnownKeys = 10_000;

export interface ApiKeyLimitsConfig {
  /** Failed key lookups all clients together may cause in a minute; null: no limit. */
  readonly failuresPerMinute: number | null;
}

export function parseApiKeyLimits(env: Readonly<Record<string, string | undefined>>): ApiKeyLimitsConfig {
  return Object.freeze({ failuresPerMinute: limitSetting(env, "API_KEY_FAILURES_PER_MINUTE", 600) });
}

/**
 * The budget, and the keys that worked here lately. Keys are named by their SHA-256
 * digest (users/keys/api-key.ts hashApiKey), never held themselves: this memory never
 * holds a secret that works.
 */
export class ApiKeyLimits {
  readonly #failures: Limiter | null;
  readonly #known = new LRUCache<string, true>({ max: maxKnownKeys, ttl: knownForMs });

  constructor(config: ApiKeyLimitsConfig, redis?: RedisOption) {
    this.#failures =
      config.failuresPerMinute === null
        ? null
        : new Limiter({ name: "apikeys", points: config.failuresPerMinute, durationSeconds: windowSeconds, redis });
  }

  /**
   * Lets the lookup of the key with this digest go ahead, or throws 429 resource_exhausted
   * (with retryAfterSeconds) when the budget is spent and the key has not worked here lately.
   */
  async check(digest: string): Promise<void> {
    if (this.#failures === null || this.#known.has(digest)) return;
    const state = await this.#failures.get("failures");
    if (state !== null && state.consumed >= this.#failures.points) {
      throw tooManyRequests("too many failed API key attempts", state.msBeforeNext);
    }
  }

  /** The key resolved to an account: spared the budget for the next hour. */
  succeeded(digest: string): void {
    if (this.#failures !== null) this.#known.set(digest, true);
  }

  /** The key resolved to nothing (unknown, revoked, expired, or of a disabled account): counted, and no longer known. */
  async failed(digest: string): Promise<void> {
    this.#known.delete(digest);
    await this.#failures?.add("failures");
  }
}
