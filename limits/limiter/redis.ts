import { once } from "node:events";
import log from "encore.dev/log";
import type { Redis } from "ioredis";
import { redisSettings, type RedisSettings } from "./env";

/** Reconnection attempts after a lost connection before the link waits for the next request. */
const reconnectAttempts = 10;

/**
 * One connection to the Redis that shares limit counts between instances.
 *
 * It never makes a request wait for Redis: a command while the connection is down fails
 * at once (no offline queue), one that gets no answer fails after `commandTimeoutMs`,
 * and the limiters fall back to counting in memory (limiter.ts). It does no work while
 * idle: the process's link is opened by the first limit check that needs it, not when a
 * module loads (sharedRedis), sends nothing of its own once connected (its socket is
 * unref'd, so it never keeps a process alive), and after a lost connection retries with
 * backoff (at most every 2 s) for `reconnectAttempts` attempts, then waits: the next limit
 * check that needs Redis starts the next round (`wake`).
 *
 * ioredis is loaded by `open`, not imported at the top: it costs an instance about 18 MB,
 * and most instances (every one without REDIS_URL) never talk to Redis.
 */
export class RedisLink {
  readonly client: Redis;
  readonly keyPrefix: string;
  #down = false;

  /**
   * A link to `settings.url`, once it is connected, or has failed to connect, or has taken
   * as long as one command may: the check that opens it waits no longer than any other,
   * and is counted in Redis whenever Redis answers in time (without the offline queue, a
   * command sent before the connection is up would fail and be counted in memory).
   */
  static async open(settings: RedisSettings, options: { commandTimeoutMs?: number } = {}): Promise<RedisLink> {
    const { Redis } = await import("ioredis");
    const commandTimeoutMs = options.commandTimeoutMs ?? 500;
    const client = new Redis(settings.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: commandTimeoutMs,
      connectTimeout: 2_000,
      retryStrategy: (times) => (times > reconnectAttempts ? null : Math.min(times * 200, 2_000)),
    });
    const link = new RedisLink(client, settings);
    // once() rejects on the first "error" (the connection failed) and on the timeout: either way the link is returned.
    await once(client, "ready", { signal: AbortSignal.timeout(commandTimeoutMs) }).catch(() => {});
    return link;
  }

  private constructor(client: Redis, settings: RedisSettings) {
    this.client = client;
    this.keyPrefix = settings.keyPrefix;
    const where = redactedUrl(settings.url);
    this.client.on("connect", () => this.client.stream.unref());
    this.client.on("ready", () => {
      if (this.#down) log.info("Redis is reachable again: limits are shared between instances", { redis: where });
      this.#down = false;
    });
    this.client.on("error", (err: Error) => {
      if (this.#down) return; // one warning per outage, not one per reconnection attempt
      this.#down = true;
      log.warn("Redis is unreachable: limits are counted by each instance on its own until it is back", {
        redis: where,
        error: err.message,
      });
    });
  }

  /** Starts connecting again when the link gave up retrying. */
  wake(): void {
    const status = this.client.status;
    if (status === "wait" || status === "end") this.client.connect().catch(() => {}); // reported by the error event
  }

  /** Closes the connection for good. */
  close(): void {
    this.client.disconnect();
  }
}

function redactedUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}

/** Where a limiter's counts are shared: a link, one being opened, or none (this instance's memory). */
export type RedisOption = RedisLink | Promise<RedisLink> | null;

const settings = redisSettings(process.env);
let shared: Promise<RedisLink> | undefined;

/** The process's link to REDIS_URL, opened at the first call; null when REDIS_URL is unset (limits per instance). */
export function sharedRedis(): Promise<RedisLink> | null {
  if (settings === null) return null;
  shared ??= RedisLink.open(settings);
  return shared;
}
