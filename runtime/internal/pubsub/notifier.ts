import pg from "pg";
import type { SqlQueryable } from "../sql/driver.ts";

const channel = "encore_pubsub";
const reconnectDelayMs = 1000;

/**
 * Wakes subscribers in other instances when a message is published
 * (PostgreSQL LISTEN/NOTIFY). Without it, or while its connection is down,
 * subscribers still find messages by polling; this only cuts the delay.
 */
export class Notifier {
  #client: pg.Client | undefined;
  #closed = false;
  #retry: NodeJS.Timeout | undefined;

  /**
   * @param onListening called each time LISTEN is (re)established: publishes made
   *   while it was down woke nobody, so subscribers should look once.
   */
  constructor(
    private readonly url: string | undefined,
    private readonly log: { warn(obj: object, msg: string): void },
    private readonly onTopic: (topic: string) => void,
    private readonly onListening: () => void = () => {},
  ) {}

  /** Whether other instances' publishes reach this one now. */
  get listening(): boolean {
    return this.#client !== undefined;
  }

  async start(): Promise<void> {
    if (!this.url || this.#closed) return;
    const client = new pg.Client({ connectionString: this.url });
    client.on("notification", (n) => n.payload && this.onTopic(n.payload));
    client.on("error", (err) => this.reconnect(client, err));
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
      this.#client = client;
      this.onListening();
    } catch (err) {
      this.reconnect(client, err);
    }
  }

  /** Tells other instances these topics have new messages (PostgreSQL only). */
  async notify(db: SqlQueryable, topics: readonly string[]): Promise<void> {
    if (!this.url || topics.length === 0) return;
    try {
      await db.query(`SELECT pg_notify('${channel}', t) FROM unnest($1::text[]) AS t`, [topics]);
    } catch (err) {
      // The messages are stored; other instances find them by polling.
      this.log.warn({ err }, "pub/sub NOTIFY failed");
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    await this.#client?.end().catch(() => {});
    this.#client = undefined;
  }

  private reconnect(client: pg.Client, err: unknown): void {
    this.log.warn({ err }, "pub/sub LISTEN connection lost; polling until it is back");
    client.end().catch(() => {});
    if (this.#client === client) this.#client = undefined;
    if (this.#closed || this.#retry) return;
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      void this.start();
    }, reconnectDelayMs);
    this.#retry.unref();
  }
}
