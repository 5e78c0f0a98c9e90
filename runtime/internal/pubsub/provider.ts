// The contract between encore.dev/pubsub and the engines that carry messages:
// the SQL provider (default, on the app's PostgreSQL) and NATS JetStream (NATS_URL).

/** A topic as the app declares it. */
export interface TopicSpec {
  readonly name: string;
  readonly deliveryGuarantee: "at-least-once" | "exactly-once";
  /**
   * The message field whose value is the ordering key: messages of one key are handled
   * by each subscription one at a time, in publish order, across all instances; a
   * failing one is retried (or dead-lettered) before the next of its key is delivered.
   */
  readonly orderingAttribute?: string;
}

/** A subscription with Encore's defaults applied and durations in milliseconds. */
export interface SubscriptionSpec {
  readonly topic: string;
  readonly name: string;
  /** Handlers running at once, per instance. */
  readonly maxConcurrency: number;
  /** A delivery not acknowledged within this time is delivered again. */
  readonly ackDeadlineMs: number;
  /** An undelivered message older than this is dropped. */
  readonly messageRetentionMs: number;
  readonly minBackoffMs: number;
  readonly maxBackoffMs: number;
  /** Failed attempts after the first before the message is dead-lettered; Infinity never. */
  readonly maxRetries: number;
}

/** One delivery of a message to a subscription. */
export interface Delivery {
  readonly messageId: string;
  /** The message as published: JSON text. */
  readonly payload: string;
  /** 1 for the first delivery, 2 for the first retry, ... */
  readonly attempt: number;
  readonly publishedAt: Date;
  /** The publisher's W3C traceparent, when it published inside a trace. */
  readonly traceparent?: string;
}

/** Resolves: acknowledged. Rejects: negatively acknowledged (retried after backoff, then dead-lettered). */
export type DeliveryHandler = (delivery: Delivery) => Promise<void>;

/** What an operator sees per subscription. */
export interface SubscriptionStats {
  readonly topic: string;
  readonly subscription: string;
  /** Messages waiting for delivery, including those waiting out a retry backoff. */
  readonly backlog: number;
  /** Messages delivered and neither acknowledged nor past their ack deadline. */
  readonly inFlight: number;
  readonly deadLetters: number;
}

export interface PubSubProvider {
  /** Prepares storage (tables, streams, durable consumers) for everything the app declares. */
  start(topics: readonly TopicSpec[], subscriptions: readonly SubscriptionSpec[]): Promise<void>;
  /**
   * Resolves to the message id once the message is durably stored. `traceparent` (the
   * publish span's, while tracing) travels with the message to each delivery.
   * `orderingKey`: on a topic with an orderingAttribute, the message's value of it.
   */
  publish(topic: string, payload: string, traceparent?: string, orderingKey?: string): Promise<string>;
  /** Starts delivering the subscription's messages to `handler` (after start). */
  subscribe(subscription: SubscriptionSpec, handler: DeliveryHandler): void;
  stats(): Promise<SubscriptionStats[]>;
  /** Moves the subscription's dead letters back for delivery; resolves to how many. */
  redrive(topic: string, subscription: string): Promise<number>;
  /** Stops taking new deliveries, waits for running handlers (at most `graceMs`), releases connections. */
  close(graceMs: number): Promise<void>;
}

/** Delay before delivery attempt `attempt + 1` after attempt `attempt` failed: exponential, clamped. */
export function retryDelayMs(attempt: number, spec: Pick<SubscriptionSpec, "minBackoffMs" | "maxBackoffMs">): number {
  const exponent = Math.min(Math.max(attempt - 1, 0), 30);
  return Math.min(spec.maxBackoffMs, spec.minBackoffMs * 2 ** exponent);
}

/** Whether a delivery that failed on `attempt` has used up its retries. */
export function retriesExhausted(attempt: number, spec: Pick<SubscriptionSpec, "maxRetries">): boolean {
  return attempt > spec.maxRetries;
}

/**
 * What a log line says of a handler's failure: the message and attempt it failed on, and
 * what happens next, so an operator can follow one message through its retries.
 */
export function handlerFailure(spec: SubscriptionSpec, delivery: Delivery, err: unknown): object {
  const next = retriesExhausted(delivery.attempt, spec)
    ? { deadLettered: true }
    : { retryInMs: retryDelayMs(delivery.attempt, spec) };
  return { err, topic: spec.topic, subscription: spec.name, messageId: delivery.messageId, attempt: delivery.attempt, ...next };
}
