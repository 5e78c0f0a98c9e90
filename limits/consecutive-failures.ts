// Consecutive failures of one key, each past the first few making the key wait longer
// before its next attempt is heard: a guesser of one secret (a password of an account,
// or of a link) from one address is slowed to a crawl, and nobody else is affected.
// Shared by login attempts per (address, email) (logins.ts) and password attempts on a
// link per (address, code) (link-passwords.ts).
import { Limiter, TooManyRequests } from "./limiter/limiter";
import type { RedisOption } from "./limiter/redis";

/** Consecutive failures of a key that cost no wait. */
export const freeFailures = 4;
const longestWaitSeconds = 15 * 60;

/** Seconds a key waits after its `failures`-th consecutive failure: 1 s after the 4th, doubling, at most 15 minutes. */
export function failureWaitSeconds(failures: number): number {
  return failures < freeFailures ? 0 : Math.min(2 ** (failures - freeFailures), longestWaitSeconds);
}

/**
 * The failures of each key, forgotten 24 hours after the first, and a gate that lets one
 * attempt through per wait. Two ways to use it:
 * - begin, then failed, takeBack or clear (logins): an attempt is counted as a failure
 *   before it is checked (so concurrent attempts all count), and taken back or cleared
 *   once it is known to be fine;
 * - admit, then fail or clear (link passwords): only a confirmed failure counts, and the
 *   caller lets one attempt of a key be checked at a time, so none is let through on a
 *   count that attempts still being checked would change.
 */
export class ConsecutiveFailures {
  readonly #failures: Limiter;
  /** One attempt per window, the window as long as the key's current wait. */
  readonly #gate: Limiter;

  /** `name` names the counters (`name` and `name-gate`), shared by every instance through Redis. */
  constructor(name: string, redis?: RedisOption) {
    this.#failures = new Limiter({ name, points: Number.MAX_SAFE_INTEGER, durationSeconds: 24 * 3600, redis });
    this.#gate = new Limiter({ name: `${name}-gate`, points: 1, durationSeconds: 1, redis });
  }

  /**
   * Counts an attempt of `key` as a failure in advance. While the key must wait, throws
   * TooManyRequests and counts nothing: a refused attempt is not a failure.
   */
  async begin(key: string): Promise<void> {
    const { consumed } = await this.#failures.add(key);
    const wait = failureWaitSeconds(consumed);
    if (wait === 0) return;
    try {
      await this.#gate.consume(key, 1, wait);
    } catch (err) {
      await this.#failures.takeBack(key);
      throw err;
    }
  }

  /**
   * Lets an attempt of `key` through on its confirmed failures, counting nothing; while
   * the key must wait after its last failure, throws TooManyRequests.
   */
  async admit(key: string): Promise<void> {
    const closed = await this.#gate.get(key);
    if (closed !== null && closed.consumed >= 1 && closed.msBeforeNext > 0) throw new TooManyRequests(closed.msBeforeNext);
  }

  /** An attempt admitted failed: counted, and the key waits from now on as long as its count says. */
  async fail(key: string): Promise<void> {
    const { consumed } = await this.#failures.add(key);
    const wait = failureWaitSeconds(consumed);
    if (wait > 0) await this.#gate.set(key, 1, wait);
  }

  /**
   * An attempt begun failed: the key's wait, if its count gives one, runs from now rather
   * than from when the attempt began, however long the check took (a password hash on a
   * busy server can take longer than the first wait of 1 s).
   */
  async failed(key: string): Promise<void> {
    const counted = await this.#failures.get(key);
    const wait = failureWaitSeconds(counted?.consumed ?? 0);
    if (wait > 0) await this.#gate.set(key, 1, wait);
  }

  /** The attempt begun was not checked after all (the check itself failed). */
  takeBack(key: string): Promise<void> {
    return this.#failures.takeBack(key);
  }

  /** The attempt succeeded: the key starts afresh. */
  async clear(key: string): Promise<void> {
    await Promise.all([this.#failures.delete(key), this.#gate.delete(key)]);
  }
}
