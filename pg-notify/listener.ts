import log from "encore.dev/log";
import pg from "pg";

/** First and longest wait before connecting again after the listening connection is lost. */
const firstRetryMs = 100;
const longestRetryMs = 5000;
/** How long one connection attempt may take. */
const connectTimeoutMs = 5000;

/** What listens on one channel. */
export interface Subscriber {
  /** A notification on the channel, sent when its transaction committed. */
  notified(payload: string): void;
  /** Listening: every notification from now on arrives; those sent before may have been missed. */
  up(): void;
  /** Notifications may be missed from now on, until `up`. */
  down(): void;
  /** Stopped for good (a stop signal); `down` was called just before. */
  closed?(): void;
}

/**
 * Listens, on a PostgreSQL connection of its own, on a few channels, and hands each
 * notification to its channel's subscriber. One connection serves them all, whatever
 * number of subscribers. Opened at the first `start`, not before.
 *
 * While the connection is lost, notifications are missed: each subscriber hears `down`,
 * and `up` once the connection is back (it is up to them to catch up). It is opened again
 * with backoff (0.1 s doubling to 5 s); a timer runs only while it is down. Errors of the
 * connection are handled here, never thrown at the process. The connection carries the
 * process's application name (PGAPPNAME, set by the runtime), so it counts as one of this
 * instance's own connections, never as another user of the database.
 */
export class NotificationListener {
  #current: pg.Client | undefined;
  #listening = false;
  #first: Promise<void> | undefined;
  #retry: NodeJS.Timeout | undefined;
  #retryMs = firstRetryMs;
  #lostAt: number | undefined;
  #closed = false;

  constructor(
    /** Channel name → its subscriber. */
    private readonly channels: ReadonlyMap<string, Subscriber>,
    /** What the channels carry, for the log ("cache evictions"). */
    private readonly what: string,
    private readonly connectionString: () => string,
    /** Resolves once the database exists (it is created at its first use). */
    private readonly ready: () => Promise<unknown>,
  ) {}

  /** Whether the listening connection is up. */
  get listening(): boolean {
    return this.#listening;
  }

  /** Starts listening unless it was started already; resolves after the first attempt, whatever its outcome. */
  start(): Promise<void> {
    this.#first ??= this.ready().then(
      () => this.connect(),
      (err: unknown) => this.lost(undefined, err),
    );
    return this.#first;
  }

  /** Stops listening for good. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    this.#retry = undefined;
    this.setListening(false);
    for (const subscriber of this.channels.values()) subscriber.closed?.();
    const client = this.#current;
    this.#current = undefined;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    if (this.#closed) return;
    let connectionString: string;
    try {
      connectionString = this.connectionString();
    } catch (err) {
      // No server to name now (the embedded cluster stopped under a short-lived command such
      // as the cron one): a failed attempt like any other, retried, never an unhandled rejection.
      this.lost(undefined, err);
      return;
    }
    const client = new pg.Client({ connectionString, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true });
    this.#current = client;
    client.on("error", (err) => this.lost(client, err));
    client.on("end", () => this.lost(client, new Error("the listening connection ended")));
    client.on("notification", ({ channel, payload }) => this.channels.get(channel)?.notified(payload ?? ""));
    try {
      await client.connect();
      // One statement: the connection listens on every channel, or on none.
      await client.query([...this.channels.keys()].map((channel) => `LISTEN ${channel};`).join(" "));
    } catch (err) {
      this.lost(client, err);
      return;
    }
    if (this.#current !== client) return; // lost while connecting, or closed
    this.setListening(true);
    this.#retryMs = firstRetryMs;
    if (this.#lostAt !== undefined) {
      log.info(`listening for ${this.what} again`, { downMs: Date.now() - this.#lostAt });
      this.#lostAt = undefined;
    }
  }

  /** The connection `client` is gone (undefined: the first attempt never got to open one). */
  private lost(client: pg.Client | undefined, err: unknown): void {
    if (client !== this.#current) return; // an old connection's late event
    this.#current = undefined;
    this.setListening(false);
    client?.end().catch(() => {});
    if (this.#closed) return;
    if (this.#lostAt === undefined) {
      this.#lostAt = Date.now();
      log.warn(err, `listening for ${this.what} failed; retrying until it is back`);
    }
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.connect();
    }, this.#retryMs);
    this.#retry.unref();
    this.#retryMs = Math.min(this.#retryMs * 2, longestRetryMs);
  }

  private setListening(listening: boolean): void {
    const was = this.#listening;
    this.#listening = listening;
    for (const subscriber of this.channels.values()) {
      if (listening) subscriber.up();
      else if (was) subscriber.down();
    }
  }
}
