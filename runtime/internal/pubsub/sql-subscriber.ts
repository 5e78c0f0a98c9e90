import type { SqlDriver } from "../sql/driver.ts";
import { handlerFailure, retriesExhausted, retryDelayMs, type Delivery, type DeliveryHandler, type SubscriptionSpec } from "./provider.ts";

/** Most deliveries claimed by one statement, so "no concurrency limit" stays bounded per query. */
const claimBatch = 100;

/** Node's setTimeout fires at once for anything longer. */
const longestTimerMs = 2_147_483_647;

/** How often each subscriber drops messages older than their retention. */
const retentionSweepMs = 60_000;

interface Claimed {
  message_id: string;
  attempts: number;
  payload: string;
  published_at: Date;
  traceparent: string | null;
}

/**
 * Delivers one subscription's messages in this instance: claims due deliveries
 * (up to maxConcurrency at once), runs the handler, then deletes the delivery
 * (ack) or schedules it again with backoff (nack), dead-lettering it once its
 * retries are spent. A claim is a lease until the ack deadline: if this
 * instance dies or the handler runs over, the message becomes due again.
 */
export class SqlSubscriber {
  #running = 0;
  #pumping = false;
  #again = false;
  #closed = false;
  #timer: NodeJS.Timeout | undefined;
  #lastSweep = 0;
  /** Whether the last look failed (the database is away): told once, not at every poll. */
  #failing = false;
  readonly #handlers = new Set<Promise<void>>();

  /**
   * @param pollIntervalMs how long to wait before looking again when nothing else
   *   will wake this subscriber: after a failed look, and while `listening()` is false.
   * @param listening whether publishes from other instances wake this one (LISTEN is
   *   up). While it is, an idle subscriber sets no timer and runs no query at all.
   */
  constructor(
    private readonly driver: SqlDriver,
    readonly spec: SubscriptionSpec,
    private readonly handler: DeliveryHandler,
    private readonly log: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void },
    private readonly pollIntervalMs: number,
    private readonly listening: () => boolean = () => false,
  ) {}

  /** Looks for due messages now (a publish happened, or a handler slot freed up). */
  wake(): void {
    if (this.#closed) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    void this.pump();
  }

  async close(graceMs: number): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.allSettled([...this.#handlers]), grace]);
    clearTimeout(timer);
  }

  private async pump(): Promise<void> {
    this.#pumping = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    // null: nothing is pending, so only a publish (or a freed handler slot) wakes us.
    let nextLookMs: number | null = this.pollIntervalMs;
    try {
      do {
        this.#again = false;
        await this.sweepExpired();
        while (!this.#closed && this.#running < this.spec.maxConcurrency) {
          const claimed = await this.claim(Math.min(this.spec.maxConcurrency - this.#running, claimBatch));
          for (const c of claimed) this.run(c);
          if (claimed.length === 0) break;
        }
      } while (this.#again && !this.#closed);
      if (this.#running < this.spec.maxConcurrency) nextLookMs = await this.untilNextDue();
      if (this.#failing) this.log.info?.({ subscription: this.spec.name }, "pub/sub: looking for messages works again");
      this.#failing = false;
    } catch (err) {
      if (!this.#failing) {
        this.log.warn({ err, subscription: this.spec.name }, "pub/sub: looking for messages failed; trying again every poll interval until it works");
      }
      this.#failing = true;
    } finally {
      this.#pumping = false;
    }
    // Woken while looking for the next due time: that wake-up must not be lost, as
    // no timer may follow.
    if (this.#again && !this.#closed) {
      void this.pump();
      return;
    }
    // Without LISTEN, another instance's publish wakes nobody here: look every interval.
    if (!this.listening()) nextLookMs = Math.min(nextLookMs ?? this.pollIntervalMs, this.pollIntervalMs);
    // A full instance is woken by the next finished handler instead.
    if (!this.#closed && nextLookMs !== null && this.#running < this.spec.maxConcurrency) {
      this.#timer = setTimeout(() => this.wake(), nextLookMs);
      this.#timer.unref();
    }
  }

  private async claim(limit: number): Promise<Claimed[]> {
    return (await this.driver.query(
      `UPDATE pubsub_delivery d
       SET state = 'leased', attempts = d.attempts + 1, visible_at = now() + $3 * interval '1 millisecond'
       FROM (
         SELECT message_id FROM pubsub_delivery
         WHERE topic = $1 AND subscription = $2 AND state <> 'dead' AND visible_at <= now()
         ORDER BY visible_at
         LIMIT $4
         FOR UPDATE SKIP LOCKED) AS due, pubsub_message m
       WHERE d.topic = $1 AND d.subscription = $2 AND d.message_id = due.message_id AND m.id = d.message_id
       RETURNING d.message_id, d.attempts, m.payload, m.published_at, m.traceparent`,
      [this.spec.topic, this.spec.name, this.spec.ackDeadlineMs, limit],
    )) as unknown as Claimed[];
  }

  /**
   * Milliseconds until the earliest pending delivery (a retry, or a lease that may
   * run out) is due, or null when nothing is pending. min() over no rows is NULL,
   * and so is the difference; GREATEST would turn that NULL into 0 (it skips NULL
   * arguments), which once made every idle subscriber look again at once, forever.
   */
  private async untilNextDue(): Promise<number | null> {
    const rows = (await this.driver.query(
      `SELECT (EXTRACT(EPOCH FROM (min(visible_at) - now())) * 1000)::float8 AS ms
       FROM pubsub_delivery WHERE topic = $1 AND subscription = $2 AND state <> 'dead'`,
      [this.spec.topic, this.spec.name],
    )) as { ms: number | null }[];
    const ms = rows[0]?.ms;
    if (ms === null || ms === undefined) return null;
    return Math.min(Math.max(0, Math.ceil(ms)), longestTimerMs);
  }

  private run(c: Claimed): void {
    this.#running++;
    const delivery: Delivery = {
      messageId: c.message_id,
      payload: c.payload,
      attempt: c.attempts,
      publishedAt: c.published_at,
      ...(c.traceparent !== null && { traceparent: c.traceparent }),
    };
    const done = this.handle(delivery).finally(() => {
      this.#running--;
      this.#handlers.delete(done);
      this.wake();
    });
    this.#handlers.add(done);
  }

  private async handle(d: Delivery): Promise<void> {
    let failure: unknown;
    try {
      await this.handler(d);
    } catch (err) {
      failure = err ?? new Error("handler failed");
      this.log.warn(handlerFailure(this.spec, d, failure), "pub/sub: a subscription handler failed");
    }
    try {
      if (failure === undefined) await this.ack(d);
      else await this.nack(d, failure);
    } catch (err) {
      // The lease runs out and the message is delivered again: at least once.
      this.log.warn({ err, subscription: this.spec.name, messageId: d.messageId }, "pub/sub: recording the outcome failed");
    }
  }

  // Only the current lease may settle a delivery: a handler that ran past its
  // deadline must not delete or reschedule the redelivery that replaced it.
  private async ack(d: Delivery): Promise<void> {
    await this.driver.query(
      `WITH settled AS (
         DELETE FROM pubsub_delivery
         WHERE topic = $1 AND subscription = $2 AND message_id = $3 AND attempts = $4 AND state = 'leased'
         RETURNING message_id)
       DELETE FROM pubsub_message m USING settled
       WHERE m.id = settled.message_id
         AND NOT EXISTS (SELECT 1 FROM pubsub_delivery o
                         WHERE o.message_id = m.id AND NOT (o.topic = $1 AND o.subscription = $2))`,
      [this.spec.topic, this.spec.name, d.messageId, d.attempt],
    );
  }

  private async nack(d: Delivery, err: unknown): Promise<void> {
    const dead = retriesExhausted(d.attempt, this.spec);
    await this.driver.query(
      `UPDATE pubsub_delivery
       SET state = $5, visible_at = now() + $6 * interval '1 millisecond', last_error = $7
       WHERE topic = $1 AND subscription = $2 AND message_id = $3 AND attempts = $4 AND state = 'leased'`,
      [
        this.spec.topic,
        this.spec.name,
        d.messageId,
        d.attempt,
        dead ? "dead" : "ready",
        dead ? 0 : retryDelayMs(d.attempt, this.spec),
        err instanceof Error ? err.message : String(err),
      ],
    );
    if (dead) this.log.warn({ subscription: this.spec.name, messageId: d.messageId }, "pub/sub: retries spent; dead-lettered");
  }

  /** Drops deliveries past their retention (dead letters stay until re-driven) and messages no one needs. */
  private async sweepExpired(): Promise<void> {
    if (Date.now() - this.#lastSweep < retentionSweepMs) return;
    this.#lastSweep = Date.now();
    await this.driver.query(
      `DELETE FROM pubsub_delivery d USING pubsub_message m
       WHERE d.topic = $1 AND d.subscription = $2 AND d.state <> 'dead' AND m.id = d.message_id
         AND m.published_at < now() - $3 * interval '1 millisecond'`,
      [this.spec.topic, this.spec.name, this.spec.messageRetentionMs],
    );
    await this.driver.query(
      `DELETE FROM pubsub_message m WHERE m.topic = $1
         AND NOT EXISTS (SELECT 1 FROM pubsub_delivery d WHERE d.message_id = m.id)`,
      [this.spec.topic],
    );
  }
}
