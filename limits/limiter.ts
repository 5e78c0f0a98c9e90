import { APIError } from "encore.dev/api";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { sharedRedis, type RedisLink } from "./redis";

export interface LimiterOptions {
  /** Names the counter; with Redis, its keys are the link's prefix, this name, ":" and the key. */
  readonly name: string;
  /** What a key may consume in one window. */
  readonly points: number;
  /** The window: it starts at a key's first point and ends this many seconds later. */
  readonly durationSeconds: number;
  /** Where counts are shared; by default REDIS_URL's link, or none (memory) when unset. */
  readonly redis?: RedisLink | null;
}

/** What a consume or a read learnt of a key. */
export interface LimitState {
  /** Points the key has consumed in its window. */
  readonly consumed: number;
  /** Milliseconds until its window ends. */
  readonly msBeforeNext: number;
}

/**
 * A counter per key with rate-limiter-flexible: fixed windows, shared by every instance
 * through Redis when REDIS_URL is set, in this process's memory otherwise.
 *
 * When Redis cannot answer (down, or slower than the link's command timeout) each
 * operation is done by an insurance limiter in memory with the same settings: the app
 * goes on with limits per instance (n instances let n times as much through) rather than
 * refusing every link and login, or waiting for Redis. A limit slows abuse down; it is not
 * worth an outage of what it protects, and n × the limit still bounds a client.
 */
export class Limiter {
  readonly points: number;
  readonly #store: RateLimiterAbstract;
  readonly #redis: RedisLink | null;

  constructor({ name, points, durationSeconds, redis = sharedRedis() }: LimiterOptions) {
    this.points = points;
    this.#redis = redis;
    const memory = new RateLimiterMemory({ keyPrefix: name, points, duration: durationSeconds });
    this.#store =
      redis === null
        ? memory
        : new RateLimiterRedis({
            storeClient: redis.client,
            keyPrefix: `${redis.keyPrefix}${name}`,
            points,
            duration: durationSeconds,
            rejectIfRedisNotReady: true,
            insuranceLimiter: memory,
          });
  }

  /**
   * Consumes `points` for `key`; over the limit (more than `points` in the window) it
   * throws TooManyRequests. `durationSeconds` sets the window of a key that has none yet.
   */
  async consume(key: string, points = 1, durationSeconds?: number): Promise<LimitState> {
    this.#redis?.wake();
    try {
      return stateOf(await this.#store.consume(key, points, durationSeconds ? { customDuration: durationSeconds } : {}));
    } catch (err) {
      if (err instanceof RateLimiterRes) throw new TooManyRequests(err.msBeforeNext);
      throw err;
    }
  }

  /** Adds `points` to `key` without a limit check; returns its count. */
  async add(key: string, points = 1): Promise<LimitState> {
    this.#redis?.wake();
    return stateOf(await this.#store.penalty(key, points));
  }

  /** Takes `points` back from `key`, as when an attempt counted in advance turned out fine. */
  async takeBack(key: string, points = 1): Promise<void> {
    this.#redis?.wake();
    await this.#store.reward(key, points);
  }

  /** The key's count, or null when it has none in a window. */
  async get(key: string): Promise<LimitState | null> {
    this.#redis?.wake();
    const res = await this.#store.get(key);
    return res === null ? null : stateOf(res);
  }

  /** Sets the key's count for `durationSeconds`. */
  async set(key: string, points: number, durationSeconds: number): Promise<void> {
    this.#redis?.wake();
    await this.#store.set(key, points, durationSeconds);
  }

  /** Forgets the key. */
  async delete(key: string): Promise<void> {
    this.#redis?.wake();
    await this.#store.delete(key);
  }
}

function stateOf(res: RateLimiterRes): LimitState {
  return { consumed: res.consumedPoints, msBeforeNext: Math.max(0, res.msBeforeNext) };
}

/** A limit was reached; the key is free again in `msBeforeNext`. */
export class TooManyRequests extends Error {
  constructor(readonly msBeforeNext: number) {
    super(`limit reached; free again in ${msBeforeNext} ms`);
  }
}

/**
 * Encore's `429 resource_exhausted`, with `details.retryAfterSeconds`: Encore.ts has no
 * way for a typed endpoint to set a response header on an error, so the wait travels in
 * the error's details, which reach the client under Encore too; the self-host runtime
 * also sends it as the `Retry-After` header (docs/endpoints.md, "Errors").
 */
export function tooManyRequests(message: string, msBeforeNext: number): APIError {
  const retryAfterSeconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return APIError.resourceExhausted(`${message}; try again in ${retryAfterSeconds} seconds`).withDetails({ retryAfterSeconds });
}
