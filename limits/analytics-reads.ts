// Limits on reading click analytics (url's GET /:code/analytics and GET /me/clicks): how
// many per client address, how many at once per instance, and how long one may run.
import { APIError } from "encore.dev/api";
import { limitSetting, secondsSetting, wholeNumberSetting } from "./limiter/env";
import { Limiter, refusedPast } from "./limiter/limiter";
import type { RedisOption } from "./limiter/redis";

type Env = Readonly<Record<string, string | undefined>>;

export interface AnalyticsReadsConfig {
  /** Reads an address may make per window; null: no limit. */
  readonly perAddress: number | null;
  readonly windowSeconds: number;
  /** Reads one instance runs at once; the others wait up to `waitMs`, then 503. */
  readonly atOnce: number;
  /** The server-side statement_timeout of each of a read's statements, in milliseconds. */
  readonly timeoutMs: number;
}

/** How long a read waits for one of the `atOnce` places before 503: a person waits a second, a flood is shed. */
export const waitMs = 1000;
/** Reads waiting at once, at most, per instance; past it a read is refused at once. */
const mostWaiting = 50;

/**
 * Defaults: 60 reads per address a minute (a person browsing a dashboard makes a few a
 * minute), 2 at once per instance, 2 s per statement. Each read holds one connection of
 * the url database's pool, which the runtime sizes as a share of DATABASE_MAX_CONNECTIONS
 * (4 connections by default for this app's 8 databases): 2 leave the rest to redirects,
 * shortens, stats and the click flush, whatever the reads cost.
 */
export function parseAnalyticsReads(env: Env): AnalyticsReadsConfig {
  return Object.freeze({
    perAddress: limitSetting(env, "ANALYTICS_READ_LIMIT_PER_ADDRESS", 60),
    windowSeconds: secondsSetting(env, "ANALYTICS_READ_LIMIT_WINDOW_SECONDS", 60, 24 * 3600),
    atOnce: wholeNumberSetting(env, "ANALYTICS_READS_AT_ONCE", 2, 1, 1000),
    timeoutMs: wholeNumberSetting(env, "ANALYTICS_READ_TIMEOUT_MS", 2000, 10, 600_000),
  });
}

/** Encore's 503 `unavailable` with `details.retryAfterSeconds` (sent as Retry-After by the self-host runtime). */
export function analyticsUnavailable(message: string, retryAfterSeconds = 1): APIError {
  return APIError.unavailable(`${message}; try again in ${retryAfterSeconds} seconds`).withDetails({ retryAfterSeconds });
}

/** The limits on analytics reads; one per process, or several in tests (each on its own Redis prefix). */
export class AnalyticsReads {
  readonly config: AnalyticsReadsConfig;
  readonly #byAddress: Limiter | null;
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(config: AnalyticsReadsConfig, redis?: RedisOption) {
    this.config = config;
    this.#byAddress =
      config.perAddress === null
        ? null
        : new Limiter({ name: "analytics-reads:address", points: config.perAddress, durationSeconds: config.windowSeconds, redis });
  }

  /**
   * Counts one read from `address` (an address key, limits/address.ts); throws 429
   * resource_exhausted (with retryAfterSeconds) over the limit. No address (a call from
   * another service) is not counted.
   */
  async count(address: string | undefined): Promise<void> {
    const byAddress = this.#byAddress;
    if (address === undefined || byAddress === null) return;
    await refusedPast("too many analytics reads from this address", () => byAddress.consume(address));
  }

  /**
   * Runs `read` when fewer than `atOnce` reads run in this instance; otherwise waits for a
   * place up to `waitMs`, then throws 503 unavailable (Retry-After 1). Waiting costs a timer,
   * only while someone waits.
   */
  async atOnce<T>(read: () => Promise<T>): Promise<T> {
    if (this.#running >= this.config.atOnce) await this.#place();
    else this.#running++;
    try {
      return await read();
    } finally {
      const next = this.#waiting.shift();
      if (next !== undefined) next(); // the place passes on: #running stays
      else this.#running--;
    }
  }

  #place(): Promise<void> {
    if (this.#waiting.length >= mostWaiting) return Promise.reject(analyticsUnavailable("too many analytics reads on this server"));
    return new Promise((resolve, reject) => {
      const take = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.#waiting.splice(this.#waiting.indexOf(take), 1);
        reject(analyticsUnavailable("too many analytics reads on this server"));
      }, waitMs);
      this.#waiting.push(take);
    });
  }
}

/** The app's analytics read limits, from the environment at start. */
export const analyticsReads = new AnalyticsReads(parseAnalyticsReads(process.env));
