import type { SqlQueryable } from "../sql/driver.ts";
import { KeptConnection } from "../sql/kept-connection.ts";

/** The LISTEN/NOTIFY channel; a notification's payload is the topic. */
export const notifyChannel = "encore_pubsub";

/**
 * Wakes subscribers in other instances when a message is published
 * (PostgreSQL LISTEN/NOTIFY). Without it, or while its connection is down,
 * subscribers still find messages by polling; this only cuts the delay.
 */
export class Notifier {
  readonly #connection: KeptConnection | undefined;

  /**
   * @param onListening called each time LISTEN is (re)established: publishes made
   *   while it was down woke nobody, so subscribers should look once.
   */
  constructor(
    private readonly url: string | undefined,
    private readonly log: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void },
    onTopic: (topic: string) => void,
    onListening: () => void = () => {},
    connectTimeoutMs = 5000,
  ) {
    if (!url) return;
    let lostOnce = false;
    this.#connection = new KeptConnection({
      url,
      connectTimeoutMs,
      setUp: async (client) => {
        client.on("notification", (n) => n.payload && onTopic(n.payload));
        await client.query(`LISTEN ${notifyChannel}`);
      },
      onUp: () => {
        if (lostOnce) this.log.info?.({}, "pub/sub LISTEN connection is back");
        onListening();
      },
      onDown: (err) => {
        lostOnce = true;
        this.log.warn({ err }, "pub/sub LISTEN connection lost; polling until it is back");
      },
    });
  }

  /** Whether publishes are to be told to other instances (PostgreSQL with a LISTEN connection configured). */
  get enabled(): boolean {
    return this.#connection !== undefined;
  }

  /** Whether other instances' publishes reach this one now. */
  get listening(): boolean {
    return this.#connection?.up ?? false;
  }

  /** Starts listening; a failure is retried in the background, meanwhile subscribers poll. */
  async start(): Promise<void> {
    await this.#connection?.open();
  }

  /** Tells other instances these topics have new messages (PostgreSQL only). */
  async notify(db: SqlQueryable, topics: readonly string[]): Promise<void> {
    if (!this.enabled || topics.length === 0) return;
    try {
      await db.query(`SELECT pg_notify('${notifyChannel}', t) FROM unnest($1::text[]) AS t`, [topics]);
    } catch (err) {
      // The messages are stored; other instances find them by polling.
      this.log.warn({ err }, "pub/sub NOTIFY failed");
    }
  }

  async close(): Promise<void> {
    await this.#connection?.close();
  }
}
