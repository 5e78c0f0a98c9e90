// Limits on guessing a link's password (url's GET /:code with X-Link-Password, and the
// form of POST /:code): per (client address, code), consecutive wrong passwords, as login
// attempts per (address, email) are (consecutive-failures.ts): the first 4 cost nothing,
// then each makes the pair wait twice as long (1 s, 2 s, 4 s, … at most 15 minutes)
// before its next attempt is heard. A right password clears the pair, so a client that
// knows it is never slowed down, nor is anyone else by a guesser. Shared through Redis
// when REDIS_URL is set, per instance otherwise; an address is its /64 network for IPv6.
import { ConsecutiveFailures } from "./consecutive-failures";
import { TooManyRequests, tooManyRequests } from "./limiter/limiter";
import type { RedisOption } from "./limiter/redis";

/** A password attempt let through and counted as wrong, until it is known to be right. */
export interface PasswordAttempt {
  /** The password was right: the pair starts afresh. */
  right(): Promise<void>;
  /** The check itself failed (too many checks at once): the count is taken back. */
  notChecked(): Promise<void>;
}

export class LinkPasswordLimits {
  readonly #pairs: ConsecutiveFailures;

  constructor(redis?: RedisOption) {
    this.#pairs = new ConsecutiveFailures("link-password:pair", redis);
  }

  /**
   * Lets an attempt on `code` from `address` (an address key) through, or throws 429
   * resource_exhausted with the wait in details.retryAfterSeconds.
   */
  async begin(address: string, code: string): Promise<PasswordAttempt> {
    const pair = JSON.stringify([address, code]);
    try {
      await this.#pairs.begin(pair);
    } catch (err) {
      if (!(err instanceof TooManyRequests)) throw err;
      throw tooManyRequests("too many wrong passwords for this link", err.msBeforeNext);
    }
    return { right: () => this.#pairs.clear(pair), notChecked: () => this.#pairs.takeBack(pair) };
  }
}
