// Limits on login attempts that slow a password guesser down without locking the
// account's owner out. Three counters, each with rate-limiter-flexible, shared through
// Redis when REDIS_URL is set and per instance otherwise (limits/limiter/limiter.ts):
//
// 1. Per (address, email) pair, consecutive failures: the first 4 cost nothing; after
//    the n-th (n ≥ 4) the pair waits 2^(n-4) seconds (1 s, 2 s, 4 s, …, at most 15
//    minutes), from that failure, before its next attempt is heard. A success clears the pair; failures are
//    forgotten 24 hours after the first. A guesser at one address is slowed to a crawl
//    against one account; nobody else is affected, the owner least of all.
// 2. Per address, failures: at most LOGIN_FAILURES_PER_ADDRESS (100) in an hour, then
//    429 until the hour is over. Looser than the pair: it is there for one client trying
//    many accounts. Successful logins do not count, so a site behind a proxy that was
//    not declared (TRUST_PROXY off: every client has the proxy's address, and the runtime
//    warns of it) is not stopped by its own users logging in.
// 3. Per email, failures from addresses that have not signed in to that account in the
//    last 14 days: at most 10 a minute, then those addresses wait for the minute to end.
//    It bounds what many addresses together can try against one account (14,400 a day),
//    only ever delays by under a minute, and never the owner's usual addresses: an
//    attacker cannot keep the owner out by spending the account's budget.
//
// Every attempt is counted as a failure before the password is checked and the count is
// taken back on success: concurrent attempts all count, so a burst cannot slip past.
// An address is its /64 network for IPv6 (limits/address.ts).
import { ConsecutiveFailures } from "./consecutive-failures";
import { limitSetting } from "./limiter/env";
import { Limiter, TooManyRequests, tooManyRequests } from "./limiter/limiter";
import type { RedisOption } from "./limiter/redis";

const emailFailuresPerMinute = 10;
/** Under Node's longest timer (24.8 days), which the in-memory store sets per key. */
const knownPairSeconds = 14 * 24 * 3600;

export interface LoginLimitsConfig {
  /** Failed logins an address may have in an hour; null: no limit. */
  readonly failuresPerAddress: number | null;
}

export function parseLoginLimits(env: Readonly<Record<string, string | undefined>>): LoginLimitsConfig {
  return Object.freeze({ failuresPerAddress: limitSetting(env, "LOGIN_FAILURES_PER_ADDRESS", 100) });
}

/** A login attempt let through and counted as a failure, until it is known to have succeeded. */
export interface LoginAttempt {
  /** The password was right: the counts are taken back, the pair cleared and known. */
  succeeded(): Promise<void>;
  /** The check itself failed (the users service unavailable): the counts are taken back. */
  notChecked(): Promise<void>;
  /** The password was wrong: the counts stay, and the pair's wait runs from now. */
  failed(): Promise<void>;
}

export class LoginLimits {
  readonly #pairs: ConsecutiveFailures;
  readonly #addressFailures: Limiter | null;
  readonly #emailFailures: Limiter;
  /** Pairs that signed in lately: exempt from the per-email limit. */
  readonly #knownPairs: Limiter;

  constructor(config: LoginLimitsConfig, redis?: RedisOption) {
    this.#pairs = new ConsecutiveFailures("login:pair", redis);
    this.#addressFailures =
      config.failuresPerAddress === null
        ? null
        : new Limiter({ name: "login:address", points: config.failuresPerAddress, durationSeconds: 3600, redis });
    this.#emailFailures = new Limiter({ name: "login:email", points: emailFailuresPerMinute, durationSeconds: 60, redis });
    this.#knownPairs = new Limiter({ name: "login:known", points: 1, durationSeconds: knownPairSeconds, redis });
  }

  /**
   * Lets an attempt of `email` from `address` (an address key) through, counted as a
   * failure, or throws 429 resource_exhausted with the wait in details.retryAfterSeconds.
   */
  async begin(address: string, email: string): Promise<LoginAttempt> {
    const pair = JSON.stringify([address, email]);
    const known = (await this.#knownPairs.get(pair)) !== null;
    const counted: [Limiter, string][] = [];
    const takeBack = () => Promise.all(counted.map(([limiter, key]) => limiter.takeBack(key)));
    try {
      if (this.#addressFailures) {
        await this.#addressFailures.consume(address);
        counted.push([this.#addressFailures, address]);
      }
      if (!known) {
        await this.#emailFailures.consume(email);
        counted.push([this.#emailFailures, email]);
      }
      await this.#pairs.begin(pair);
    } catch (err) {
      if (!(err instanceof TooManyRequests)) throw err;
      await takeBack(); // refused before its password was checked: not a failure
      throw tooManyRequests("too many failed login attempts", err.msBeforeNext);
    }
    return {
      notChecked: async () => void (await Promise.all([takeBack(), this.#pairs.takeBack(pair)])),
      failed: () => this.#pairs.failed(pair),
      succeeded: async () => {
        await Promise.all([takeBack(), this.#pairs.clear(pair), this.#knownPairs.set(pair, 1, knownPairSeconds)]);
      },
    };
  }
}
