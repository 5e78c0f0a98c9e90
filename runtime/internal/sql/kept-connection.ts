import pg from "pg";

export interface KeptConnectionOptions {
  readonly url: string;
  /** How long one connection attempt may take. */
  readonly connectTimeoutMs: number;
  /** How long to wait before the next attempt, while the server cannot be reached. */
  readonly retryMs?: number;
  /** Prepares each new connection before it counts as up (LISTEN); a failure counts as a failed attempt. */
  readonly setUp?: (client: pg.Client) => Promise<void>;
  /** Each time the connection is (re)established. */
  readonly onUp?: () => void;
  /** Once per loss (or failed first attempt), with why: the next "up" ends it. */
  readonly onDown?: (err: unknown) => void;
}

/**
 * One PostgreSQL connection held open for as long as the process wants it (the
 * pub/sub LISTEN connection, the embedded cluster's presence), and opened again
 * when it is lost: once per retry interval while the server is away, never while
 * it is up. Errors of a client already given up on are ignored, so a late event
 * from an old connection cannot start a second one.
 */
export class KeptConnection {
  #client: pg.Client | undefined;
  /** The client being connected or in use; events of any other are stale. */
  #current: pg.Client | undefined;
  #retry: NodeJS.Timeout | undefined;
  #closed = false;
  #down = false;

  constructor(private readonly options: KeptConnectionOptions) {}

  /** Whether the connection is up now. */
  get up(): boolean {
    return this.#client !== undefined;
  }

  /** Connects; resolves with whether it is up. A failure is retried in the background, never thrown. */
  async open(): Promise<boolean> {
    if (this.#closed || this.#current) return this.up;
    const client = new pg.Client({ connectionString: this.options.url, connectionTimeoutMillis: this.options.connectTimeoutMs, keepAlive: true });
    this.#current = client;
    client.on("error", (err) => this.lost(client, err));
    client.on("end", () => this.lost(client, new Error("Connection terminated")));
    try {
      await client.connect();
      await this.options.setUp?.(client);
    } catch (err) {
      this.lost(client, err);
      return false;
    }
    if (this.#current !== client) return false; // lost while setting up, or closed
    this.#client = client;
    this.#down = false;
    this.options.onUp?.();
    return true;
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#current;
    this.#current = undefined;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  private lost(client: pg.Client, err: unknown): void {
    if (client !== this.#current) return;
    this.#current = undefined;
    this.#client = undefined;
    client.end().catch(() => {});
    if (this.#closed) return;
    if (!this.#down) {
      this.#down = true;
      this.options.onDown?.(err);
    }
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.open();
    }, this.options.retryMs ?? 1000);
    this.#retry.unref();
  }
}
