export interface RateLimiterOptions {
  /** Hits a key may have within any window. */
  readonly limit: number;
  readonly windowMs: number;
  /** Most keys tracked at once; past it the least recently hit key is forgotten. */
  readonly maxKeys: number;
  /** Milliseconds on a clock that never goes back; tests pass their own. */
  readonly now?: () => number;
}

/**
 * A sliding-window counter per key: at most `limit` hits in any `windowMs`.
 *
 * In memory, per instance: with several instances each counts on its own, so a
 * client spread over n instances gets up to n times the limit.
 *
 * Memory is bounded: a key keeps at most `limit` hit times, and at most `maxKeys` keys
 * are tracked. Keys are kept in order of their latest hit (a Map re-inserted on each
 * hit), so the expired ones are always at the front and are dropped there as time
 * passes, at constant cost per call. When `maxKeys` live keys are tracked, the least
 * recently hit one is forgotten, which can only ever let a client try again early;
 * refusing new keys instead would lock everybody out during a flood.
 */
export class RateLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #maxKeys: number;
  readonly #now: () => number;
  /** Key → times of its hits still in the window, oldest first. */
  readonly #hits = new Map<string, number[]>();

  constructor({ limit, windowMs, maxKeys, now = () => performance.now() }: RateLimiterOptions) {
    for (const [name, value] of Object.entries({ limit, windowMs, maxKeys })) {
      if (!Number.isSafeInteger(value) || value < 1) {
        throw new RangeError(`${name} must be a whole number of at least 1, got ${value}`);
      }
    }
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#maxKeys = maxKeys;
    this.#now = now;
  }

  /** Milliseconds until `key` may be hit again; 0 when it may be now. */
  retryAfterMs(key: string): number {
    const now = this.#now();
    this.#dropExpired(now);
    const times = this.#recent(key, now);
    if (times.length < this.#limit) return 0;
    // The oldest hit that keeps the key at its limit leaves the window at this time.
    return times[times.length - this.#limit]! + this.#windowMs - now;
  }

  /** Counts one hit for `key`. */
  hit(key: string): void {
    const now = this.#now();
    this.#dropExpired(now);
    const times = this.#recent(key, now);
    times.push(now);
    if (times.length > this.#limit) times.splice(0, times.length - this.#limit);
    this.#hits.delete(key); // re-inserted at the back: the most recently hit
    this.#hits.set(key, times);
    for (const oldest of this.#hits.keys()) {
      if (this.#hits.size <= this.#maxKeys) break;
      this.#hits.delete(oldest);
    }
  }

  /** Forgets `key`'s hits (a successful login clears its failures). */
  reset(key: string): void {
    this.#hits.delete(key);
  }

  /** How many keys are tracked. */
  get size(): number {
    return this.#hits.size;
  }

  #recent(key: string, now: number): number[] {
    const times = this.#hits.get(key) ?? [];
    const first = times.findIndex((t) => t > now - this.#windowMs);
    return first === -1 ? [] : times.slice(first);
  }

  /** Drops keys whose latest hit left the window; they are all at the front. */
  #dropExpired(now: number): void {
    for (const [key, times] of this.#hits) {
      if (times[times.length - 1]! > now - this.#windowMs) break;
      this.#hits.delete(key);
    }
  }
}
