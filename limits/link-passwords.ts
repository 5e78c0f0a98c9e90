// Limits on guessing a link's password (url's GET /:code with X-Link-Password, the form
// of POST /:code, and the stats and analytics of a password link): per (client address,
// code), consecutive wrong passwords, as login attempts per (address, email) are
// (consecutive-failures.ts): the first 4 cost nothing, then each makes the pair wait twice
// as long (1 s, 2 s, 4 s, … at most 15 minutes) before its next attempt is heard. A right
// password clears the pair, so a client that knows it is never slowed down, nor is anyone
// else by a guesser. Shared through Redis when REDIS_URL is set, per instance otherwise;
// an address is its /64 network for IPv6.
//
// Only a confirmed mismatch counts: a right password, however many are sent at once, is
// never refused for the attempts around it. So that a burst of guesses cannot all be
// checked before the first is counted, a pair's attempts take turns on each instance:
// each is let through (or refused) on the failures of those before it, and at most
// `maxUnfinished` are under way at once (past that, 429 at once, nothing counted). With
// several instances, a burst spread over them can have one attempt per instance checked
// at once before the counts they share catch up; the waits bound it from then on.
import { ConsecutiveFailures } from "./consecutive-failures";
import { refusedPast, tooManyRequests } from "./limiter/limiter";
import type { RedisOption } from "./limiter/redis";

/**
 * Attempts of one pair under way (checked or waiting their turn) on this instance. A client
 * knowing the password sends one; callers share the check of an attempt repeated while it
 * is under way (link-access/password-checks.ts), so only different passwords queue.
 */
export const maxUnfinished = 4;

/** A pair's attempts on this instance: the end of its line, and how many are in it. */
interface Turns {
  last: Promise<unknown>;
  unfinished: number;
}

export class LinkPasswordLimits {
  readonly #pairs: ConsecutiveFailures;
  readonly #turns = new Map<string, Turns>();

  constructor(redis?: RedisOption) {
    this.#pairs = new ConsecutiveFailures("link-password:pair", redis);
  }

  /**
   * Runs `check` (is the password right?) for an attempt on `code` from `address` (an
   * address key), in the pair's turn, and answers what it says: false counts as a
   * failure, true clears the pair, a check that throws (too many checks at once on this
   * server) counts nothing. While the pair must wait, or when too many of its attempts
   * are under way, throws 429 resource_exhausted with the wait in
   * details.retryAfterSeconds, without running `check`.
   */
  attempt(address: string, code: string, check: () => Promise<boolean>): Promise<boolean> {
    const pair = JSON.stringify([address, code]);
    let turns = this.#turns.get(pair);
    if (turns === undefined) {
      turns = { last: Promise.resolve(), unfinished: 0 };
      this.#turns.set(pair, turns);
    }
    if (turns.unfinished >= maxUnfinished) {
      return Promise.reject(tooManyRequests("too many passwords for this link are being tried at once", 1000));
    }
    turns.unfinished++;
    const answer = turns.last.then(() => this.#attemptNow(pair, check));
    const finished = () => {
      if (--turns.unfinished === 0) this.#turns.delete(pair);
    };
    turns.last = answer.then(finished, finished);
    return answer;
  }

  async #attemptNow(pair: string, check: () => Promise<boolean>): Promise<boolean> {
    await refusedPast("too many wrong passwords for this link", () => this.#pairs.admit(pair));
    const right = await check();
    await (right ? this.#pairs.clear(pair) : this.#pairs.fail(pair));
    return right;
  }
}
