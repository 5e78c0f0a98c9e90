import log from "encore.dev/log";
import pg from "pg";
import { urlCache, type LinkCache } from "./cache";
import { db } from "../db";

/** The channel migration 6's trigger sends codes on; an empty payload means every code. */
export const evictionChannel = "url_cache_evict";

/** First and longest wait before connecting again after the listening connection is lost. */
const firstRetryMs = 100;
const longestRetryMs = 5000;
/** How long one connection attempt may take. */
const connectTimeoutMs = 5000;

/**
 * Listens, on a PostgreSQL connection of its own, for the codes whose rows were
 * deleted or changed (by any instance, the cleanup job, or SQL typed by hand) and
 * drops them from this instance's cache. Opened at the first lookup, not before.
 *
 * While the connection is lost, notifications are missed: the cache keeps serving
 * what it holds (a database outage must not take cached links down) but keeps
 * nothing new, and when the connection is back the whole cache is cleared. It is
 * opened again with backoff (0.1 s doubling to 5 s); a timer runs only while it is
 * down. Errors of the connection are handled here, never thrown at the process.
 * A stop signal closes it for good and empties the cache. The connection carries
 * the process's application name (PGAPPNAME, set by the runtime), so it counts as
 * one of this instance's own connections, never as another user of the database.
 */
export class CacheEvictions {
  #current: pg.Client | undefined;
  #first: Promise<void> | undefined;
  #retry: NodeJS.Timeout | undefined;
  #retryMs = firstRetryMs;
  #lostAt: number | undefined;
  #closed = false;

  constructor(
    private readonly cache: LinkCache,
    private readonly connectionString: () => string,
    /** Resolves once the database exists (it is created at its first use). */
    private readonly ready: () => Promise<unknown>,
  ) {}

  /** Whether the listening connection is up. */
  get listening(): boolean {
    return this.cache.guarded;
  }

  /** Starts listening unless it was started already; resolves after the first attempt, whatever its outcome. */
  start(): Promise<void> {
    this.#first ??= this.ready().then(
      () => this.connect(),
      (err: unknown) => this.lost(undefined, err),
    );
    return this.#first;
  }

  /**
   * Stops listening for good. The cache is emptied too: without evictions it could
   * go stale, and a stopping instance's lookups write their clicks one by one anyway.
   */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#retry = undefined;
    this.cache.unguard();
    this.cache.clear();
    const client = this.#current;
    this.#current = undefined;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({ connectionString: this.connectionString(), connectionTimeoutMillis: connectTimeoutMs, keepAlive: true });
    this.#current = client;
    client.on("error", (err) => this.lost(client, err));
    client.on("end", () => this.lost(client, new Error("the listening connection ended")));
    client.on("notification", ({ payload }) => (payload ? this.cache.evict(payload) : this.cache.clear()));
    try {
      await client.connect();
      await client.query(`LISTEN ${evictionChannel}`);
    } catch (err) {
      this.lost(client, err);
      return;
    }
    if (this.#current !== client) return; // lost while connecting, or closed
    this.cache.guard();
    this.#retryMs = firstRetryMs;
    if (this.#lostAt !== undefined) {
      log.info("listening for cache evictions again; the cache was cleared", { downMs: Date.now() - this.#lostAt });
      this.#lostAt = undefined;
    }
  }

  /** The connection `client` is gone (undefined: the first attempt never got to open one). */
  private lost(client: pg.Client | undefined, err: unknown): void {
    if (client !== this.#current) return; // an old connection's late event
    this.#current = undefined;
    this.cache.unguard();
    client?.end().catch(() => {});
    if (this.#closed) return;
    if (this.#lostAt === undefined) {
      this.#lostAt = Date.now();
      log.warn(err, "listening for cache evictions failed; caching nothing new and retrying until it is back");
    }
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.connect();
    }, this.#retryMs);
    this.#retry.unref();
    this.#retryMs = Math.min(this.#retryMs * 2, longestRetryMs);
  }
}

/** This instance's listener: it opens at the first lookup (link-cache/lookup.ts), not at start. */
export const cacheEvictions = new CacheEvictions(urlCache, () => db.connectionString, () => db.exec`SELECT 1`);

/** The service's start calls this once: a stopping instance closes its connection rather than leave it to be cut. */
export function closeCacheEvictionsOnStop(): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => void cacheEvictions.close());
  }
}
