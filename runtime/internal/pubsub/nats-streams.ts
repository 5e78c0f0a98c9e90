import {
  AckPolicy,
  DeliverPolicy,
  NatsError,
  nanos,
  ReplayPolicy,
  RetentionPolicy,
  StorageType,
  type ConsumerConfig,
  type JetStreamManager,
  type StreamConfig,
} from "nats";
import type { NatsNames } from "./nats-names.ts";
import type { SubscriptionSpec } from "./provider.ts";

// What the NATS provider asks JetStream to keep, and how it keeps it up to date.

type NamedStreamConfig = Partial<StreamConfig> & { name: string };

/** A topic without subscriptions keeps messages as long as Encore's default retention. */
const defaultRetentionMs = 7 * 24 * 3_600_000;
/** JetStream's default de-duplication window; it may not exceed max_age. */
const duplicateWindowMs = 120_000;
/** JetStream's "stream name already in use with a different configuration". */
const streamNameInUse = 10058;

// Interest retention, not limits: a message stays until every subscription has
// acknowledged (or dead-lettered) it, or until max_age, the longest retention
// of the topic's subscriptions. Disk use then follows the unprocessed backlog
// rather than seven days of traffic, and a subscription added later (its
// consumer delivers "all") gets what is still unprocessed elsewhere instead of
// a week of history, which is closer to Encore, where a new subscription
// starts from new messages. As in Encore, a topic without subscriptions keeps
// nothing.
export function topicStream(names: NatsNames, topic: string, subs: readonly SubscriptionSpec[]): NamedStreamConfig {
  const maxAgeMs = subs.length > 0 ? Math.max(...subs.map((s) => s.messageRetentionMs)) : defaultRetentionMs;
  return {
    name: names.stream(topic),
    subjects: [names.topicSubjects(topic)],
    retention: RetentionPolicy.Interest,
    storage: StorageType.File,
    max_age: nanos(maxAgeMs),
    duplicate_window: nanos(Math.min(duplicateWindowMs, maxAgeMs)),
  };
}

export function consumerConfig(names: NatsNames, s: SubscriptionSpec): Partial<ConsumerConfig> {
  return {
    durable_name: names.consumer(s.name),
    description: `Encore subscription "${s.name}" on topic "${s.topic}"`,
    // Filters the whole topic (nats-server 2.9 allows one filter): redrives meant
    // for other subscriptions are acknowledged and skipped by the subscriber.
    filter_subject: names.topicSubjects(s.topic),
    ack_policy: AckPolicy.Explicit,
    // A subscription created after messages were published gets those still stored.
    deliver_policy: DeliverPolicy.All,
    replay_policy: ReplayPolicy.Instant,
    ack_wait: nanos(s.ackDeadlineMs),
    // Retries are counted here and end in the dead-letter stream, not in max_deliver.
    max_deliver: -1,
    // Concurrency is limited client-side (an instance pulls only for free handler
    // slots). A server-side cap would also count messages waiting out a retry
    // backoff, so a burst of failing messages would stall the healthy ones.
    max_ack_pending: -1,
  };
}

/**
 * One partition of an ordered topic's subscription: it filters that partition's
 * subjects and lets one message at a time be unacknowledged, whichever instance pulled
 * it. A failed message nak'd with a backoff stays unacknowledged, so the next of its
 * partition waits for its retry (or its dead-lettering, a term); one past its ack
 * deadline is redelivered before anything after it.
 */
export function partitionConsumerConfig(names: NatsNames, s: SubscriptionSpec, p: number): Partial<ConsumerConfig> {
  return {
    ...consumerConfig(names, s),
    durable_name: names.partitionConsumer(s.name, p),
    description: `Encore subscription "${s.name}" on ordered topic "${s.topic}", partition ${p}`,
    filter_subject: names.partitionSubjects(s.topic, p),
    max_ack_pending: 1,
  };
}

export async function ensureStream(jsm: JetStreamManager, cfg: NamedStreamConfig): Promise<void> {
  try {
    await jsm.streams.add(cfg);
  } catch (err) {
    // It exists with other settings (a subscription's retention changed): bring it in line.
    if (apiErrorCode(err) !== streamNameInUse) throw err;
    await jsm.streams.update(cfg.name, cfg);
  }
}

/**
 * Dead letters of a topic live in their own stream, one subject per
 * subscription, payload unchanged and the story in headers. They are kept
 * until redriven (no max_age), as the SQL provider keeps them.
 */
export function deadLetterStream(names: NatsNames, topic: string): NamedStreamConfig {
  return {
    name: names.deadStream(topic),
    subjects: [names.deadSubjects(topic)],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: 0,
  };
}

export function apiErrorCode(err: unknown): number | undefined {
  return err instanceof NatsError ? err.api_error?.err_code : undefined;
}
