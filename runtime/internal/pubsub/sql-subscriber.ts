import { cargo, type QueueObject } from "async";
import type { SqlDriver } from "../sql/driver.ts";
import { handlerFailure, retriesExhausted, retryDelayMs, type Delivery, type DeliveryHandler, type SubscriptionSpec } from "./provider.ts";
import { acknowledge, claimDue, dropExpired, recordFailures, release, type Acknowledged, type Claimed, type ClaimResult, type Failed, type Settled } from "./sql-deliveries.ts";
import { acknowledgeAndLeaseNext, claimHeads } from "./sql-ordered.ts";

/**
 * Most deliveries one statement claims or settles, so "no concurrency limit" stays
 * bounded per query and one statement's locks stay few.
 */
const batchLimit = 500;

/** How many claim round trips of handler work a subscriber claims ahead (see adjustAhead). */
const aheadRoundTrips = 8;

/** How often each subscriber drops messages older than their retention. */
const retentionSweepMs = 60_000;

type Log = { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };

interface Queued extends Claimed {
  /** performance.now() when the claim was sent: its lease runs ackDeadline from about then. */
  readonly leasedAt: number;
}

/**
 * Delivers one subscription's messages in this instance: claims due deliveries, runs
 * the handler on each (at most maxConcurrency at once), then deletes the delivery (ack)
 * or schedules it again with backoff (nack), dead-lettering it once its retries are
 * spent. A claim is a lease until the ack deadline: if this instance dies or the
 * handler runs over, the message becomes due again.
 *
 * Everything that touches the database is done a batch at a time: one statement claims
 * for every free handler slot, and outcomes are group-committed (those that finish while
 * a batch is being written go together in the next, up to `batchLimit`), so under load
 * a statement serves hundreds of messages and a lone message is still written at once.
 * A handler's slot is free as soon as its handler returns; its outcome is written
 * behind it, and close() waits for that too.
 *
 * Claiming ahead: when handlers finish faster than a claim's round trip, slots would
 * sit idle waiting for it, so the subscriber also claims as many deliveries as its
 * handlers finished in about two round trips (measured as it goes; at most a batch),
 * queued here until a slot is free. Slow handlers leave that near zero, so other
 * instances still get their share. A queued delivery whose lease is half gone is
 * handed back rather than started late, as are those queued when the subscriber closes.
 */
export class SqlSubscriber {
  #running = 0;
  #pumping = false;
  /** The look running now, if any: close() lets a claim in flight end and hand back what it took. */
  #pumpRun: Promise<void> = Promise.resolve();
  #again = false;
  #closed = false;
  #timer: NodeJS.Timeout | undefined;
  #lastSweep = 0;
  /** Whether the last look failed (the database is away): told once, not at every poll. */
  #failing = false;
  /** Whether the last look ended with no room to claim what is pending: a freed slot looks again. */
  #wakeOnFree = false;
  /** Claimed and waiting for a free slot, oldest first. */
  #queue: Queued[] = [];
  /** Deliveries to claim beyond the free slots (see the class comment). */
  #ahead = 0;
  #finished = 0;
  #rateMark = { at: 0, finished: 0 };
  /** Ordered: where the next claim's walk over the keys starts. */
  #cursor = "";
  /** Handlers running, and outcomes not yet written: what close() waits for. */
  readonly #inFlight = new Set<Promise<unknown>>();
  readonly #acks: QueueObject<Acknowledged>;
  readonly #failures: QueueObject<Failed>;

  /**
   * @param pollIntervalMs how long to wait before looking again when nothing else
   *   will wake this subscriber: after a failed look, and while `listening()` is false.
   * @param listening whether publishes from other instances wake this one (LISTEN is
   *   up). While it is, an idle subscriber sets no timer and runs no query at all.
   * @param ordered the topic has an orderingAttribute: claims take only the oldest pending
   *   delivery of each key, and each acknowledgement makes the next of its key due, so
   *   the acknowledgement leases it too, or this subscriber looks again (the one that
   *   acknowledged is the one that knows; the provider's close() tells the others).
   */
  constructor(
    private readonly driver: SqlDriver,
    readonly spec: SubscriptionSpec,
    private readonly handler: DeliveryHandler,
    private readonly log: Log,
    private readonly pollIntervalMs: number,
    private readonly listening: () => boolean = () => false,
    readonly ordered = false,
  ) {
    this.#acks = cargo<Acknowledged>(async (batch: Acknowledged[]) => {
      // Ordered, the next message of each of these keys is due now: leased with the ack.
      const leased = ordered ? await this.acknowledgeAndLeaseNext(batch) : (await acknowledge(driver, spec, batch), 0);
      // The pending look was timed for these leases running out; settled, they never will.
      // Ordered, a key whose next message was not leased with its ack is looked at again;
      // when all were, the new leases run out later than the look, which then sets the next.
      if (ordered ? leased < batch.length : this.#timer !== undefined) this.wake();
    }, batchLimit);
    this.#failures = cargo<Failed>(async (batch: Failed[]) => {
      await recordFailures(driver, spec, batch);
      this.wake(); // their retries are due at new times
    }, batchLimit);
  }

  /** Looks for due messages now (a publish happened, or a handler slot freed up). */
  wake(): void {
    if (this.#closed) return;
    if (this.#pumping) {
      this.#again = true;
      return;
    }
    this.#pumpRun = this.pump();
  }

  async close(graceMs: number): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.handBack(this.#queue.splice(0));
    const drained = (async () => {
      await this.#pumpRun;
      // Handlers, outcomes being written, and hand-backs, including any started meanwhile.
      while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
    })();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([drained, grace]);
    clearTimeout(timer);
  }

  /** How many deliveries the next claim may take: free slots and the claim-ahead allowance, less what is held. */
  private get room(): number {
    const held = this.#running + this.#queue.length;
    return Math.min(this.spec.maxConcurrency + this.#ahead - held, batchLimit);
  }

  /**
   * Whether to claim now: with deliveries still queued, only once half the allowance is
   * free, so fast handlers are fed by a few large claims rather than one per freed slot.
   */
  private get claimNow(): boolean {
    const room = this.room;
    return room > 0 && (this.#queue.length === 0 || room >= Math.min(this.spec.maxConcurrency + this.#ahead, batchLimit) / 2);
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
        while (!this.#closed && this.claimNow) {
          const sentAt = performance.now();
          const { claimed, nextDueMs } = await this.claim(this.room);
          this.adjustAhead(sentAt);
          const leased = claimed.map((c) => ({ ...c, leasedAt: sentAt }));
          // Closed while claiming: what was taken goes back at once, unstarted.
          if (this.#closed) this.handBack(leased);
          else this.#queue.push(...leased);
          this.startQueued();
          nextLookMs = nextDueMs;
          // More are due now only when the claim took all it could and the next is due already.
          if (nextDueMs !== 0) break;
        }
      } while (this.#again && !this.#closed);
      if (this.#failing) this.log.info?.({ subscription: this.spec.name }, "pub/sub: looking for messages works again");
      this.#failing = false;
    } catch (err) {
      if (!this.#failing) {
        this.log.warn({ err, subscription: this.spec.name }, "pub/sub: looking for messages failed; trying again every poll interval until it works");
      }
      this.#failing = true;
      nextLookMs = this.pollIntervalMs;
    } finally {
      this.#pumping = false;
    }
    // Woken while claiming: that wake-up must not be lost, as no timer may follow.
    if (this.#again && !this.#closed) {
      this.#pumpRun = this.pump();
      return;
    }
    // Without LISTEN, another instance's publish wakes nobody here: look every interval.
    if (!this.listening()) nextLookMs = Math.min(nextLookMs ?? this.pollIntervalMs, this.pollIntervalMs);
    // A full instance is woken by the next finished handler instead.
    this.#wakeOnFree = nextLookMs !== null && this.room <= 0;
    if (!this.#closed && nextLookMs !== null && this.room > 0) {
      this.#timer = setTimeout(() => this.wake(), nextLookMs);
      this.#timer.unref();
    }
  }

  /** Resolves to how many next messages were leased (and queued to run). */
  private async acknowledgeAndLeaseNext(batch: readonly Acknowledged[]): Promise<number> {
    const sentAt = performance.now();
    const leased = await acknowledgeAndLeaseNext(this.driver, this.spec, batch, this.#closed ? 0 : Math.max(this.room, 0));
    const queued = leased.map((c) => ({ ...c, leasedAt: sentAt }));
    if (this.#closed) this.handBack(queued);
    else {
      this.#queue.push(...queued);
      this.startQueued();
    }
    return leased.length;
  }

  private async claim(limit: number): Promise<ClaimResult> {
    if (!this.ordered) return claimDue(this.driver, this.spec, limit);
    const result = await claimHeads(this.driver, this.spec, limit, this.#cursor);
    this.#cursor = result.cursor;
    return result;
  }

  /**
   * Sets how many to claim ahead from the handlers' pace since the previous claim and
   * this claim's round trip (Little's law): what they finish in `aheadRoundTrips` round
   * trips, so slots stay busy through the next claim and claims stay few; it halves at
   * most per claim when handlers slow down. A queued delivery so waits a few round trips.
   */
  private adjustAhead(sentAt: number): void {
    // Ordered, a delivery claimed ahead holds up its whole key here while it waits for a
    // slot, though another instance may have one free: claim only for free slots.
    if (this.ordered) return;
    const now = performance.now();
    const perMs = (this.#finished - this.#rateMark.finished) / Math.max(now - this.#rateMark.at, 1);
    this.#rateMark = { at: now, finished: this.#finished };
    const wanted = Math.ceil(aheadRoundTrips * perMs * (now - sentAt));
    this.#ahead = Math.min(batchLimit, Math.max(wanted, Math.floor(this.#ahead / 2)));
  }

  /** Starts queued deliveries while slots are free; hands back those whose lease is half gone. */
  private startQueued(): void {
    const stale: Queued[] = [];
    const freshAfter = performance.now() - this.spec.ackDeadlineMs / 2;
    while (this.#running < this.spec.maxConcurrency && this.#queue.length > 0) {
      const next = this.#queue.shift()!;
      if (next.leasedAt < freshAfter) stale.push(next);
      else this.run(next);
    }
    this.handBack(stale);
  }

  private handBack(queued: readonly Queued[]): void {
    if (queued.length === 0) return;
    const back = release(this.driver, this.spec, queued.map((q) => ({ messageId: q.message_id, attempt: q.attempts }))).then(
      () => this.wake(),
      // Left leased, they are due again when their lease runs out.
      (err: unknown) => this.log.warn({ err, subscription: this.spec.name }, "pub/sub: handing back unstarted deliveries failed"),
    );
    this.#inFlight.add(back);
    void back.finally(() => this.#inFlight.delete(back));
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
    const done = this.handle(delivery, c.row_id).finally(() => this.#inFlight.delete(done));
    this.#inFlight.add(done);
  }

  private async handle(d: Delivery, rowId: string): Promise<void> {
    let failure: unknown;
    try {
      await this.handler(d);
    } catch (err) {
      failure = err ?? new Error("handler failed");
      this.log.warn(handlerFailure(this.spec, d, failure), "pub/sub: a subscription handler failed");
    }
    this.#running--;
    this.#finished++;
    if (!this.#closed) this.startQueued();
    if (this.#wakeOnFree && this.claimNow) {
      this.#wakeOnFree = false;
      this.wake();
    }
    const settled = { messageId: d.messageId, attempt: d.attempt };
    try {
      if (failure === undefined) await this.#acks.pushAsync({ ...settled, rowId });
      else await this.nack(settled, failure);
    } catch (err) {
      // The lease runs out and the message is delivered again: at least once.
      this.log.warn({ err, subscription: this.spec.name, messageId: d.messageId }, "pub/sub: recording the outcome failed");
    }
  }

  private async nack(settled: Settled, err: unknown): Promise<void> {
    const dead = retriesExhausted(settled.attempt, this.spec);
    await this.#failures.pushAsync({
      ...settled,
      dead,
      retryInMs: dead ? 0 : retryDelayMs(settled.attempt, this.spec),
      error: err instanceof Error ? err.message : String(err),
    });
    if (dead) this.log.warn({ subscription: this.spec.name, messageId: settled.messageId }, "pub/sub: retries spent; dead-lettered");
  }

  private async sweepExpired(): Promise<void> {
    if (Date.now() - this.#lastSweep < retentionSweepMs) return;
    this.#lastSweep = Date.now();
    await dropExpired(this.driver, this.spec);
  }
}
