import { millis, type Consumer, type ConsumerMessages, type JetStreamClient, type JsMsg } from "nats";
import { messageIdHeader, publishedAtHeader, traceparentHeader, type NatsDeadLetters } from "./nats-dead-letters.ts";
import type { NatsNames } from "./nats-names.ts";
import { handlerFailure, retriesExhausted, retryDelayMs, type Delivery, type DeliveryHandler, type SubscriptionSpec } from "./provider.ts";

export interface NatsLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** How long one pull waits on the server; also the longest a pull lost in a reconnect can stall delivery. */
const pullExpiresMs = 10_000;
/** Most messages asked for in one pull, so "no concurrency limit" still pulls in bounded batches. */
const maxPullBatch = 256;
/** Pause before pulling again after a failure (consumer missing, connection down). */
const retryPauseMs = 1_000;

/** A subscription's handlers running in this instance, shared by the consumers it pulls from. */
export class HandlerSlots {
  readonly running = new Set<Promise<void>>();
  constructor(readonly limit: number) {}
}

/** The durable consumer to pull from, and at most how many messages it lets be unacknowledged. */
export interface PulledConsumer {
  readonly name: string;
  /** Infinity for a subscription's consumer; 1 for a partition of an ordered topic. */
  readonly maxPull: number;
}

/**
 * Delivers one subscription's messages in this instance from a durable pull
 * consumer (an ordered topic's subscription has one per partition, each pulled by a
 * subscriber of its own sharing the subscription's handler slots). It pulls only as
 * many messages as there are free handler slots, so no message waits in a
 * client-side buffer while its ack deadline runs; other instances pulling from the
 * same consumer share the work.
 */
export class NatsSubscriber {
  readonly #running: Set<Promise<void>>;
  readonly #consumerName: string;
  /** The subscription's token, as redrives name it. */
  readonly #subscriptionToken: string;
  #closed = false;
  #batch: ConsumerMessages | undefined;
  #loop: Promise<void> | undefined;
  #interrupt = () => {};
  readonly #closing = new Promise<void>((resolve) => (this.#interrupt = resolve));

  constructor(
    private readonly js: JetStreamClient,
    private readonly names: NatsNames,
    private readonly deadLetters: NatsDeadLetters,
    readonly spec: SubscriptionSpec,
    private readonly handler: DeliveryHandler,
    private readonly log: NatsLogger,
    private readonly consumer: PulledConsumer = { name: names.consumer(spec.name), maxPull: Infinity },
    private readonly slots: HandlerSlots = new HandlerSlots(spec.maxConcurrency),
  ) {
    this.#consumerName = consumer.name;
    this.#subscriptionToken = names.consumer(spec.name);
    this.#running = slots.running;
  }

  start(): void {
    this.#loop ??= this.pull();
  }

  /** Stops pulling, then waits for running handlers for at most `graceMs`. */
  async close(graceMs: number): Promise<void> {
    this.#closed = true;
    this.#interrupt();
    this.#batch?.stop();
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([Promise.allSettled([this.#loop, ...this.#running]), grace]);
    clearTimeout(timer);
  }

  private async pull(): Promise<void> {
    let consumer: Consumer | undefined;
    while (!this.#closed) {
      const free = Math.min(this.slots.limit - this.#running.size, maxPullBatch, this.consumer.maxPull);
      if (free <= 0) {
        await Promise.race([...this.#running, this.#closing]);
        continue;
      }
      try {
        consumer ??= await this.js.consumers.get(this.names.stream(this.spec.topic), this.#consumerName);
        const batch = await consumer.fetch({ max_messages: free, expires: pullExpiresMs });
        this.#batch = batch;
        if (this.#closed) batch.stop();
        for await (const msg of batch) this.dispatch(msg);
      } catch (err) {
        if (this.#closed) break;
        consumer = undefined;
        this.log.warn(
          { err, topic: this.spec.topic, subscription: this.spec.name },
          "pub/sub: pulling messages from NATS failed; trying again",
        );
        await this.pause(retryPauseMs);
      } finally {
        this.#batch = undefined;
      }
    }
  }

  private dispatch(msg: JsMsg): void {
    // Pulled as close() began: hand it straight back for another instance.
    if (this.#closed) return this.settle(msg, "nak", () => msg.nak());
    const addressee = this.names.addressee(msg.subject);
    // A redrive meant for another subscription of the topic: not ours to deliver.
    if (addressee !== undefined && addressee !== this.#subscriptionToken) return this.settle(msg, "ack", () => msg.ack());
    const run = this.deliver(msg)
      .catch((err: unknown) => this.warnUnsettled(err, String(msg.seq), "delivery"))
      .finally(() => this.#running.delete(run));
    this.#running.add(run);
  }

  private async deliver(msg: JsMsg): Promise<void> {
    const delivery = toDelivery(msg);
    try {
      await this.handler(delivery);
    } catch (err) {
      const failure = err ?? new Error("handler failed");
      this.log.warn(handlerFailure(this.spec, delivery, failure), "pub/sub: a subscription handler failed");
      await this.failed(msg, delivery, failure);
      return;
    }
    try {
      // Confirmed, so a handled message is not reported done before the server knows.
      await msg.ackAck();
    } catch (err) {
      this.warnUnsettled(err, delivery.messageId, "ack");
    }
  }

  private async failed(msg: JsMsg, delivery: Delivery, error: unknown): Promise<void> {
    const retryIn = retryDelayMs(delivery.attempt, this.spec);
    if (!retriesExhausted(delivery.attempt, this.spec)) return this.settle(msg, "nak", () => msg.nak(retryIn));
    try {
      await this.deadLetters.add(this.spec, msg, delivery, error);
    } catch (err) {
      this.log.error(
        { err, topic: this.spec.topic, subscription: this.spec.name, messageId: delivery.messageId },
        "pub/sub: storing a dead letter failed; the message will be retried",
      );
      return this.settle(msg, "nak", () => msg.nak(retryIn));
    }
    this.settle(msg, "term", () => msg.term());
    this.log.warn(
      { topic: this.spec.topic, subscription: this.spec.name, messageId: delivery.messageId, attempts: delivery.attempt },
      "pub/sub: retries spent; dead-lettered",
    );
  }

  /** ack/nak/term only fail on a closed connection; the ack deadline then brings the message back. */
  private settle(msg: JsMsg, what: string, send: () => void): void {
    try {
      send();
    } catch (err) {
      this.warnUnsettled(err, String(msg.seq), what);
    }
  }

  private warnUnsettled(err: unknown, messageId: string, what: string): void {
    this.log.warn(
      { err, topic: this.spec.topic, subscription: this.spec.name, messageId },
      `pub/sub: ${what} did not reach NATS; the message will be delivered again after its ack deadline`,
    );
  }

  private async pause(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), this.#closing]);
    clearTimeout(timer);
  }
}

function toDelivery(msg: JsMsg): Delivery {
  const h = msg.headers;
  const publishedAt = h?.get(publishedAtHeader);
  const traceparent = h?.get(traceparentHeader);
  return {
    // Redriven messages carry the original id; Nats-Msg-Id there is the redrive's own.
    messageId: h?.get(messageIdHeader) || h?.get("Nats-Msg-Id") || `${msg.info.stream}:${msg.seq}`,
    payload: msg.string(),
    attempt: msg.info.deliveryCount,
    publishedAt: publishedAt ? new Date(publishedAt) : new Date(millis(msg.info.timestampNanos)),
    ...(traceparent && { traceparent }),
  };
}
