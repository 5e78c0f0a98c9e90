// The url service's tunables, read from the environment once, validated and frozen.
import path from "node:path";
import { onOffSetting, wholeNumberSetting } from "../../limits/limiter/env";

export interface UrlConfig {
  /** How many code → URL entries each instance keeps in memory. */
  readonly cacheSize: number;
  /**
   * Reads of uncached links one instance has under way at once (lookups of a code being
   * read share its read); past it, a lookup is refused with 503 and Retry-After.
   */
  readonly lookupReadsAtOnce: number;
  /** How often counted clicks are written; 0 writes each click before answering. */
  readonly clickFlushIntervalMs: number;
  /**
   * The server-side limit of one write of clicks (statement_timeout; lock_timeout is
   * half of it). Below the runtime's query timeout, so the server gives up first.
   */
  readonly clickWriteTimeoutMs: number;
  /** Where clicks that cannot be written wait on disk (an absolute path). */
  readonly clickJournalDir: string;
  /**
   * How long the clicks a flush adds to a workspace's recent rows wait before they are folded
   * into its hours (click-analytics/fold-trigger.ts): the longest a read of the workspace sums
   * them, and the shortest time between two folds of this instance.
   */
  readonly workspaceFoldDelayMs: number;
  /**
   * TRUST_PROXY, as the runtime reads it: the raw endpoints that limit by client address
   * (a password link's attempts) find the address themselves, by the rule the runtime
   * applies to typed endpoints (link-answers/client-address.ts).
   */
  readonly trustProxy: boolean;
}

export function parseUrlConfig(env: Readonly<Record<string, string | undefined>>): UrlConfig {
  return Object.freeze({
    cacheSize: wholeNumberSetting(env, "URL_CACHE_SIZE", 100_000, 1, Number.MAX_SAFE_INTEGER),
    lookupReadsAtOnce: wholeNumberSetting(env, "LOOKUP_READS_AT_ONCE", 128, 1, 100_000),
    clickFlushIntervalMs: wholeNumberSetting(env, "CLICK_FLUSH_INTERVAL_MS", 100, 0, longestTimerMs),
    clickWriteTimeoutMs: wholeNumberSetting(env, "CLICK_WRITE_TIMEOUT_MS", 5000, 100, 600_000),
    // Beside the app's other local data: DATA_DIR when set (as the self-host runtime
    // uses it), else .data under the working directory.
    clickJournalDir: path.resolve(env.CLICK_JOURNAL_DIR?.trim() || path.join(env.DATA_DIR?.trim() || ".data", "click-journal")),
    workspaceFoldDelayMs: wholeNumberSetting(env, "WORKSPACE_CLICKS_FOLD_DELAY_MS", 300_000, 0, longestTimerMs),
    trustProxy: onOffSetting(env, "TRUST_PROXY", false),
  });
}

// Node runs a timer with a longer delay after 1 ms instead, which would turn a
// "rarely" into "constantly".
const longestTimerMs = 2 ** 31 - 1;

export const urlConfig: UrlConfig = parseUrlConfig(process.env);
