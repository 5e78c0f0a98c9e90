import { APIError } from "encore.dev/api";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { sharedRedis, type RedisLink, type RedisOption } from "./redis";

export interface LimiterOptions {
  /** Names the counter; with Redis, its keys are the link's prefix, this name, ":" and the key. */
  readonly name: string;
  /** What a key may consume in one window. */
  readonly points: number;
  /** The window: it starts at a key's first point and ends this many seconds later. */
  readonly durationSeconds: number;
  /** Where counts are shared; by default REDIS_URL's link (opened at the first operation), or none (memory) when unset. */
  readonly redis?: RedisOption;
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
  readonly #name: string;
  readonly #durationSeconds: number;
  readonly #redis: RedisOption | undefined;
  /** Counts in memory: the store without Redis, the insurance limiter with it. */
  readonly #memory: RateLimiterMemory;
  /**
   * The counter, made at the first operation rather than here: limiters are made as their
   * modules load, and loading a module opens no connection (a process that never checks a
   * limit never connects to Redis).
   */
  #store: RateLimiterAbstract | Promise<RateLimiterAbstract> | undefined;
  #link: RedisLink | null = null;

  constructor({ name, points, durationSeconds, redis }: LimiterOptions) {
    this.points = points;
    this.#name = name;
    this.#durationSeconds = durationSeconds;
    this.#redis = redis;
    this.#memory = new RateLimiterMemory({ keyPrefix: name, points, duration: durationSeconds });
  }

  /** The memory counter, or a Redis one once the link (REDIS_URL's by default) is open. */
  #open(): RateLimiterAbstract | Promise<RateLimiterAbstract> {
    const redis = this.#redis === undefined ? sharedRedis() : this.#redis;
    if (redis === null) return this.#memory;
    const store = Promise.resolve(redis).then((link) => {
      this.#link = link;
      return new RateLimiterRedis({
        storeClient: link.client,
        keyPrefix: `${link.keyPrefix}${this.#name}`,
        points: this.points,
        duration: this.#durationSeconds,
        rejectIfRedisNotReady: true,
        insuranceLimiter: this.#memory,
      });
    });
    // Failing to open the link fails the operations that need it, not the process meanwhile.
    store.catch(() => {});
    return store;
  }

  /** The store, opened at the first call; wakes a link that gave up reconnecting. */
  async #ready(): Promise<RateLimiterAbstract> {
    this.#store ??= this.#open();
    const store = await this.#store;
    this.#link?.wake();
    return store;
  }

  /**
   * Consumes `points` for `key`; over the limit (more than `points` in the window) it
   * throws TooManyRequests. `durationSeconds` sets the window of a key that has none yet.
   */
  async consume(key: string, points = 1, durationSeconds?: number): Promise<LimitState> {
    const store = await this.#ready();
    try {
      return stateOf(await store.consume(key, points, durationSeconds ? { customDuration: durationSeconds } : {}));
    } catch (err) {
      if (err instanceof RateLimiterRes) throw new TooManyRequests(err.msBeforeNext);
      throw err;
    }
  }

  /** Adds `points` to `key` without a limit check; returns its count. */
  async add(key: string, points = 1): Promise<LimitState> {
    const store = await this.#ready();
    return stateOf(await store.penalty(key, points));
  }

  /** Takes `points` back from `key`, as when an attempt counted in advance turned out fine. */
  async takeBack(key: string, points = 1): Promise<void> {
    const store = await this.#ready();
    await store.reward(key, points);
  }

  /** The key's count, or null when it has none in a window. */
  async get(key: string): Promise<LimitState | null> {
    const store = await this.#ready();
    const res = await store.get(key);
    return res === null ? null : stateOf(res);
  }

  /** Sets the key's count for `durationSeconds`. */
  async set(key: string, points: number, durationSeconds: number): Promise<void> {
    const store = await this.#ready();
    await store.set(key, points, durationSeconds);
  }

  /** Forgets the key. */
  async delete(key: string): Promise<void> {
    const store = await this.#ready();
    await store.delete(key);
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

/**
 * Runs `counting` (a limit's consume, admit or begin) and turns a TooManyRequests it throws
 * into tooManyRequests(`message`): what every limit answers a client past it.
 */
export async function refusedPast<T>(message: string, counting: () => Promise<T>): Promise<T> {
  try {
    return await counting();
  } catch (err) {
    if (err instanceof TooManyRequests) throw tooManyRequests(message, err.msBeforeNext);
    throw err;
  }
}
