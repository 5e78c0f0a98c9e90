// How many scrypt computations run at once. scrypt runs on libuv's thread pool
// (UV_THREADPOOL_SIZE threads, 4 by default), which also does file reads, DNS lookups and
// zlib: a burst of sign-ups left to it would queue a hash per request there, and every
// login and file read behind them would wait for the whole burst. So each kind of work
// gets a share of the threads and a short line:
// - new hashes (sign-ups, password changes): a quarter of the pool (1 of 4);
// - checks of a password (logins): half of it (2 of 4);
// so at least one thread is left to everything else, and a flood of either kind cannot
// take the other's threads. Each line holds 8 rounds of its work (under a second at
// 50–100 ms a hash); past that the answer is 503 unavailable at once, with
// Retry-After: 1. The server as a whole is busy, not this client over its quota, so
// not 429; and a fast refusal the client retries beats a wait without bound.
import { APIError } from "encore.dev/api";
import pLimit, { type LimitFunction } from "p-limit";

const roundsQueued = 8;

/** A number of scrypt computations at once, with a bounded line of callers behind them. */
export class ScryptSlots {
  readonly #limit: LimitFunction;
  readonly #capacity: number;

  constructor(
    /** What the work is, for the refusal's message: "new passwords", "password checks". */
    readonly what: string,
    readonly concurrency: number,
    readonly queueLimit: number,
  ) {
    this.#limit = pLimit(concurrency);
    this.#capacity = concurrency + queueLimit;
  }

  /** Computations running now. */
  get running(): number {
    return this.#limit.activeCount;
  }

  /** Callers waiting for a slot. */
  get waiting(): number {
    return this.#limit.pendingCount;
  }

  /** Runs `work` in a slot, or refuses at once with 503 unavailable when the line is full. */
  run<T>(work: () => Promise<T>): Promise<T> {
    // Exact at every instant: p-limit moves a caller from its line to a slot synchronously.
    if (this.#limit.activeCount + this.#limit.pendingCount >= this.#capacity) {
      return Promise.reject(
        APIError.unavailable(`too many ${this.what} at once on this server; try again in a second`).withDetails({ retryAfterSeconds: 1 }),
      );
    }
    return this.#limit(work);
  }
}

/** libuv's thread pool size: UV_THREADPOOL_SIZE, read as libuv reads it at start; 4 when unset. */
export function threadPoolSize(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env.UV_THREADPOOL_SIZE?.trim();
  if (!raw) return 4;
  const size = Number(raw);
  if (!Number.isSafeInteger(size) || size < 1 || size > 1024) {
    throw new Error(`invalid configuration: UV_THREADPOOL_SIZE must be a whole number from 1 to 1024, got "${env.UV_THREADPOOL_SIZE}"`);
  }
  return size;
}

/** The slots of new hashes and of password checks for a pool of `poolSize` threads. */
export function scryptSlotsFor(poolSize: number): { newHashes: ScryptSlots; checks: ScryptSlots } {
  const newHashes = Math.max(1, Math.floor(poolSize / 4));
  const checks = Math.max(1, Math.floor(poolSize / 2));
  return {
    newHashes: new ScryptSlots("new passwords being hashed", newHashes, newHashes * roundsQueued),
    checks: new ScryptSlots("passwords being checked", checks, checks * roundsQueued),
  };
}
