import { randomUUID } from "node:crypto";
import { connect, Events, headers, type JetStreamClient, type JetStreamManager, type NatsConnection } from "nats";
import { NatsDeadLetters, traceparentHeader } from "./nats-dead-letters.ts";
import { natsNames, orderingPartitions, partitionOfKey, type NatsNames } from "./nats-names.ts";
import { consumerConfig, deadLetterStream, ensureStream, partitionConsumerConfig, topicStream } from "./nats-streams.ts";
import { HandlerSlots, NatsSubscriber, type NatsLogger } from "./nats-subscriber.ts";
import type { PubSubProvider, SubscriptionSpec, SubscriptionStats, TopicSpec } from "./provider.ts";

export interface NatsProviderOptions {
  /** e.g. nats://127.0.0.1:4222, or a comma-separated list of a cluster's servers. */
  readonly url: string;
  /** Namespaces every stream, subject and consumer this provider creates. Default "encore". */
  readonly streamPrefix?: string;
  readonly logger?: NatsLogger;
}

interface Connected {
  readonly nc: NatsConnection;
  readonly js: JetStreamClient;
  readonly jsm: JetStreamManager;
  readonly deadLetters: NatsDeadLetters;
}

/**
 * Pub/sub on NATS JetStream: one stream per topic, one durable pull consumer
 * per subscription (per subscription and partition on an ordered topic), dead
 * letters in a stream per topic (see nats-names.ts for the layout). Several
 * instances may share a stream prefix; they share the work.
 *
 * @example
 * const provider = natsProvider({ url: "nats://127.0.0.1:4222", logger: log });
 * await provider.start(topics, subscriptions);
 */
export function natsProvider(options: NatsProviderOptions): PubSubProvider {
  const names = natsNames(options.streamPrefix ?? "encore");
  const log = options.logger ?? consoleLogger;
  let connecting: Promise<Connected> | undefined;
  let connected: Connected | undefined;
  let declared: readonly SubscriptionSpec[] = [];
  /** Topics with an orderingAttribute. */
  let ordered = new Set<string>();
  const subscribers: NatsSubscriber[] = [];

  function connection(): Promise<Connected> {
    connecting ??= open(options.url, names, log).then(
      (c) => (connected = c),
      (err: unknown) => {
        // Not kept, so the next call tries again.
        connecting = undefined;
        throw err;
      },
    );
    return connecting;
  }

  return {
    async start(topics: readonly TopicSpec[], subscriptions: readonly SubscriptionSpec[]) {
      const { jsm } = await connection();
      const topicNames = new Set([...topics.map((t) => t.name), ...subscriptions.map((s) => s.topic)]);
      const orderedTopics = new Set(topics.filter((t) => t.orderingAttribute !== undefined).map((t) => t.name));
      for (const topic of topicNames) {
        const subs = subscriptions.filter((s) => s.topic === topic);
        await ensureStream(jsm, topicStream(names, topic, subs));
        await ensureStream(jsm, deadLetterStream(names, topic));
        // Creating a durable consumer that exists updates it (nats-server >= 2.9).
        for (const s of subs) {
          const configs = orderedTopics.has(topic) ? partitions.map((p) => partitionConsumerConfig(names, s, p)) : [consumerConfig(names, s)];
          for (const config of configs) await jsm.consumers.add(names.stream(topic), config);
        }
      }
      declared = subscriptions;
      ordered = orderedTopics;
    },

    async publish(topic, payload, traceparent, orderingKey) {
      const { js } = await connection();
      const id = randomUUID();
      // A message of an ordered topic without a key goes to a partition of its own choosing.
      const subject = ordered.has(topic) ? names.partitionPublishSubject(topic, partitionOfKey(orderingKey ?? id)) : names.publishSubject(topic);
      try {
        // Resolves on the PubAck: the message is stored. The id lets JetStream drop a retried publish.
        await js.publish(subject, payload, { msgID: id, ...(traceparent !== undefined && { headers: withTraceparent(traceparent) }) });
      } catch (err) {
        throw new Error(`NATS pub/sub: publishing to topic "${topic}" failed`, { cause: err });
      }
      return id;
    },

    subscribe(spec, handler) {
      if (!connected) throw new Error(`NATS pub/sub: subscribe("${spec.name}") called before start()`);
      const { js, deadLetters } = connected;
      const slots = new HandlerSlots(spec.maxConcurrency);
      const consumers = ordered.has(spec.topic)
        ? partitions.map((p) => ({ name: names.partitionConsumer(spec.name, p), maxPull: 1 }))
        : [{ name: names.consumer(spec.name), maxPull: Infinity }];
      for (const consumer of consumers) {
        const subscriber = new NatsSubscriber(js, names, deadLetters, spec, handler, log, consumer, slots);
        subscribers.push(subscriber);
        subscriber.start();
      }
    },

    // backlog: the consumer's num_pending, messages not yet delivered to the
    // subscription (redrives addressed to its siblings count until skipped).
    // inFlight: num_ack_pending, delivered and not yet acknowledged. JetStream
    // keeps a message nak'd with a delay pending on the consumer, so messages
    // waiting out a retry backoff (or past their ack deadline, awaiting
    // redelivery) count as inFlight here, not as backlog; backlog + inFlight is
    // still everything the subscription has left to do.
    async stats(): Promise<SubscriptionStats[]> {
      const { jsm, deadLetters } = await connection();
      const subs = declared;
      const topics = [...new Set(subs.map((s) => s.topic))];
      const dead = new Map(await Promise.all(topics.map(async (t) => [t, await deadLetters.counts(t)] as const)));
      return Promise.all(
        subs.map(async (s) => {
          const consumers = ordered.has(s.topic) ? partitions.map((p) => names.partitionConsumer(s.name, p)) : [names.consumer(s.name)];
          const infos = await Promise.all(consumers.map((c) => jsm.consumers.info(names.stream(s.topic), c)));
          return {
            topic: s.topic,
            subscription: s.name,
            backlog: infos.reduce((n, info) => n + info.num_pending, 0),
            inFlight: infos.reduce((n, info) => n + info.num_ack_pending, 0),
            deadLetters: dead.get(s.topic)?.[names.deadSubject(s.topic, s.name)] ?? 0,
          };
        }),
      );
    },

    async redrive(topic, subscription) {
      const { deadLetters } = await connection();
      return deadLetters.redrive(topic, subscription);
    },

    async close(graceMs) {
      await Promise.all(subscribers.splice(0).map((s) => s.close(graceMs)));
      const c = await connecting?.catch(() => undefined);
      connecting = undefined;
      connected = undefined;
      if (c && !c.nc.isClosed()) {
        // Handlers still running past the grace period can no longer ack: their
        // messages come back after the ack deadline, to another instance.
        await c.nc.drain().catch((err: unknown) => log.warn({ err }, "pub/sub: draining the NATS connection failed"));
      }
    },
  };
}

const partitions = Array.from({ length: orderingPartitions }, (_, p) => p);

/**
 * Deletes every stream (and so every consumer and dead letter) created under
 * `streamPrefix`; for tests and for tearing an environment down.
 */
export async function deleteNatsStreams(url: string, streamPrefix: string): Promise<void> {
  const root = `${natsNames(streamPrefix).prefix}.`;
  const nc = await connect({ servers: serverList(url) });
  try {
    const jsm = await nc.jetstreamManager();
    const doomed: string[] = [];
    // Matched on subjects, not names: a prefix is a whole subject token, so
    // "encore" never takes "encore_test"'s streams.
    for await (const info of jsm.streams.list()) {
      if (info.config.subjects?.some((s) => s.startsWith(root))) doomed.push(info.config.name);
    }
    for (const name of doomed) await jsm.streams.delete(name);
  } finally {
    await nc.close();
  }
}

async function open(url: string, names: NatsNames, log: NatsLogger): Promise<Connected> {
  let nc: NatsConnection;
  try {
    // Fails fast when NATS is unreachable at boot; once connected, nats.js
    // reconnects for as long as it takes.
    nc = await connect({ servers: serverList(url), name: `encore-pubsub:${names.prefix}`, maxReconnectAttempts: -1 });
  } catch (err) {
    throw new Error(`NATS pub/sub: cannot connect to ${withoutCredentials(url)} (NATS_URL)`, { cause: err });
  }
  watch(nc, log).catch((err: unknown) => log.error({ err }, "pub/sub: watching the NATS connection failed"));
  try {
    const jsm = await nc.jetstreamManager();
    const js = nc.jetstream();
    return { nc, js, jsm, deadLetters: new NatsDeadLetters(js, jsm, names) };
  } catch (err) {
    await nc.close();
    throw new Error(`NATS pub/sub: JetStream is not available at ${withoutCredentials(url)} (start nats-server with -js)`, {
      cause: err,
    });
  }
}

/** Connection trouble is logged, never thrown: nats.js keeps reconnecting. */
async function watch(nc: NatsConnection, log: NatsLogger): Promise<void> {
  for await (const s of nc.status()) {
    if (s.type === Events.Disconnect) log.warn({ server: s.data }, "pub/sub: lost the NATS connection; reconnecting");
    else if (s.type === Events.Reconnect) log.warn({ server: s.data }, "pub/sub: reconnected to NATS");
    else if (s.type === Events.LDM) log.warn({ server: s.data }, "pub/sub: NATS server is shutting down (lame duck)");
    else if (s.type === Events.Error) log.error({ err: s.data }, "pub/sub: NATS reported an error");
  }
  const err = await nc.closed();
  if (err) log.error({ err }, "pub/sub: the NATS connection closed with an error");
}

function withTraceparent(traceparent: string) {
  const h = headers();
  h.set(traceparentHeader, traceparent);
  return h;
}

function serverList(url: string): string[] {
  return url
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

function withoutCredentials(url: string): string {
  return url.replace(/\/\/[^@/,]*@/g, "//");
}

const consoleLogger: NatsLogger = {
  warn: (obj, msg) => console.warn(msg, obj),
  error: (obj, msg) => console.error(msg, obj),
};
