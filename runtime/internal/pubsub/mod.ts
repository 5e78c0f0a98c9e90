import { config } from "../config/mod.ts";
import { rootLogger } from "../log/root.ts";
import { meter, type Meter } from "../metrics/mod.ts";
import { pubsubDelivery, runWithRequest, type BaseRequestMeta, type PubSubMessageMeta } from "../reqtrack/mod.ts";
import { databaseUrl, openDatabase } from "../sql/databases.ts";
import { recorder, type SpanRecorder } from "../tracing/mod.ts";
import { retriesExhausted, type Delivery, type DeliveryHandler, type PubSubProvider, type SubscriptionSpec, type TopicSpec } from "./provider.ts";
import { pubsubDatabaseName } from "./sql-schema.ts";
import { sqlProvider } from "./sql-provider.ts";

/** A subscription as declared: its settings, the app's handler, and the service it lives in. */
export interface DeclaredSubscription {
  readonly spec: SubscriptionSpec;
  readonly service: string;
  readonly handler: (msg: unknown) => Promise<unknown>;
}

const topics = new Map<string, TopicSpec>();
const subscriptions: DeclaredSubscription[] = [];
let provider: Promise<PubSubProvider> | undefined;
/** Subscriptions already handed to the provider. */
const subscribed = new Set<DeclaredSubscription>();

export function declareTopic(spec: TopicSpec): void {
  if (topics.has(spec.name)) throw new Error(`topic "${spec.name}" is declared twice`);
  topics.set(spec.name, spec);
}

export function declareSubscription(sub: DeclaredSubscription): void {
  if (subscriptions.some((s) => s.spec.topic === sub.spec.topic && s.spec.name === sub.spec.name)) {
    throw new Error(`subscription "${sub.spec.name}" on topic "${sub.spec.topic}" is declared twice`);
  }
  subscriptions.push(sub);
  // Declared after pub/sub started (a module loaded late): start delivering it too.
  if (provider) void startPubSub();
}

/** Whether the app declares any topic. */
export function hasPubSub(): boolean {
  return topics.size > 0;
}

/** Starts pub/sub (once; again for subscriptions declared since) and resolves to the provider. */
export function startPubSub(): Promise<PubSubProvider> {
  const previous = provider;
  provider = (async () => {
    const p = previous ? await previous : await createProvider();
    const pending = subscriptions.filter((s) => !subscribed.has(s));
    if (!previous || pending.length > 0) {
      await p.start([...topics.values()], subscriptions.map((s) => s.spec));
    }
    for (const sub of pending) {
      subscribed.add(sub);
      const handler: DeliveryHandler = (d) => (recorder === null ? deliver(sub, d, deliveryMeta(sub, d)) : tracedDelivery(recorder, sub, d));
      p.subscribe(sub.spec, meter === null ? handler : counted(meter, sub.spec, handler));
    }
    return p;
  })();
  // A failed start is not kept, so the next publish tries again.
  provider.catch(() => (provider = previous));
  return provider;
}

/**
 * Counts what becomes of each delivery, the same for both providers: they decide alike
 * (provider.ts) that a failure is retried until its attempts run out, then dead-lettered.
 */
function counted(m: Meter, spec: SubscriptionSpec, handler: DeliveryHandler): DeliveryHandler {
  return (d) =>
    handler(d).then(
      () => m.delivered(spec.topic, spec.name, "delivered"),
      (err: unknown) => {
        m.delivered(spec.topic, spec.name, retriesExhausted(d.attempt, spec) ? "dead_lettered" : "retried");
        throw err;
      },
    );
}

/** Runs the subscription's handler on one delivery, as a request of its own. */
function deliver(sub: DeclaredSubscription, d: Delivery, meta: PubSubMessageMeta & BaseRequestMeta): Promise<void> {
  return runWithRequest(pubsubDelivery(meta), async () => {
    await sub.handler(JSON.parse(d.payload));
  });
}

/** The delivery as the root of a trace of its own, linked to the publisher's when the message carries its traceparent. */
function tracedDelivery(traces: SpanRecorder, sub: DeclaredSubscription, d: Delivery): Promise<void> {
  const { service, spec } = sub;
  const delivery = { service, topic: spec.topic, subscription: spec.name, messageId: d.messageId, attempt: d.attempt, traceparent: d.traceparent };
  return traces.message(delivery, () => {
    const meta = deliveryMeta(sub, d);
    const trace = traces.traceData();
    return deliver(sub, d, trace === undefined ? meta : { ...meta, trace });
  });
}

function deliveryMeta(sub: DeclaredSubscription, d: Delivery): PubSubMessageMeta {
  return {
    type: "pubsub-message",
    service: sub.service,
    topic: sub.spec.topic,
    subscription: sub.spec.name,
    messageId: d.messageId,
    deliveryAttempt: d.attempt,
  };
}

export async function publish(topic: string, msg: unknown): Promise<string> {
  if (!topics.has(topic)) throw new Error(`topic "${topic}" is not declared`);
  if (typeof msg !== "object" || msg === null || Array.isArray(msg)) {
    throw new TypeError(`topic "${topic}": a message must be an object`);
  }
  const key = orderingKey(topics.get(topic)!, msg as Record<string, unknown>);
  const payload = JSON.stringify(msg);
  const id =
    recorder === null
      ? await (await (provider ?? startPubSub())).publish(topic, payload, undefined, key)
      : await recorder.publish(topic, async (traceparent) => (await (provider ?? startPubSub())).publish(topic, payload, traceparent, key));
  meter?.published(topic);
  return id;
}

/**
 * The message's ordering key on a topic with an orderingAttribute. As in Encore, a
 * message without the attribute is refused (Encore's runtime: "ordering attribute <name>
 * not found"). An empty string is no key, as on GCP, where Encore's ordered topics run:
 * such a message is delivered without ordering.
 */
function orderingKey(topic: TopicSpec, msg: Record<string, unknown>): string | undefined {
  const attribute = topic.orderingAttribute;
  if (attribute === undefined) return undefined;
  const value = msg[attribute];
  if (value === undefined || value === null) throw new Error(`ordering attribute ${attribute} not found`);
  const key = String(value);
  return key === "" ? undefined : key;
}

/** The started provider, if any (operations endpoints, shutdown). */
export function runningPubSub(): Promise<PubSubProvider> | undefined {
  return provider;
}

/** Stops deliveries, letting running handlers finish for up to `graceMs`. */
export async function stopPubSub(graceMs: number): Promise<void> {
  const p = provider;
  provider = undefined;
  subscribed.clear();
  if (p) await (await p.catch(() => undefined))?.close(graceMs);
}

async function createProvider(): Promise<PubSubProvider> {
  const cfg = config();
  const log = rootLogger().child({ component: "pubsub" });
  if (cfg.natsUrl) {
    // Loaded only when configured: the SQL provider needs no NATS client.
    const { natsProvider } = await import("./nats-provider.ts");
    return natsProvider({ url: cfg.natsUrl, streamPrefix: natsPrefix(cfg.databaseNamePrefix), logger: log });
  }
  const driver = await openDatabase(pubsubDatabaseName);
  return sqlProvider({ driver, listenUrl: databaseUrl(pubsubDatabaseName), log, connectTimeoutMs: cfg.sql.connectTimeoutMs });
}

// Environments sharing one NATS server are kept apart the way databases are.
export function natsPrefix(databaseNamePrefix: string): string {
  return databaseNamePrefix ? `encore_${databaseNamePrefix.replace(/_+$/, "")}` : "encore";
}
