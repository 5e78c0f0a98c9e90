import { randomUUID } from "node:crypto";
import { cargo } from "async";
import type { SqlDriver } from "../sql/driver.ts";
import { applyMigrations } from "../sql/migrations.ts";
import { Notifier, notifyChannel } from "./notifier.ts";
import type { PubSubProvider, SubscriptionSpec, SubscriptionStats, TopicSpec } from "./provider.ts";
import { pubsubMigrations } from "./sql-schema.ts";
import { keyUnkeyed } from "./sql-ordered.ts";
import { SqlSubscriber } from "./sql-subscriber.ts";

export interface SqlProviderOptions {
  readonly driver: SqlDriver;
  /** PostgreSQL only: a connection string to LISTEN on, so other instances' publishes wake this one. */
  readonly listenUrl?: string;
  readonly log: { warn(obj: object, msg: string): void; info?(obj: object, msg: string): void };
  /** How long connecting the LISTEN connection may take. */
  readonly connectTimeoutMs?: number;
  /**
   * How often subscribers look for due messages while nothing else can wake them
   * (no LISTEN, or its connection is down), and how soon after a failed look.
   * With LISTEN up, an idle subscriber does not poll.
   */
  readonly pollIntervalMs?: number;
}

interface Pending {
  readonly id: string;
  readonly topic: string;
  readonly payload: string;
  readonly traceparent: string | null;
  readonly orderingKey: string | null;
}

/**
 * Durable pub/sub on the SQL store. Publishing inserts one delivery row per
 * subscription, each carrying the message, in one statement; subscribers claim due
 * rows with FOR UPDATE SKIP LOCKED, so any number of instances share the work.
 *
 * A message published to a topic without subscriptions is not stored: as with
 * Encore's cloud providers (a GCP topic or SNS topic without subscriptions), no
 * one would ever receive it, and nothing would ever delete it. Its publish still
 * resolves to a message id.
 */
export function sqlProvider(options: SqlProviderOptions): PubSubProvider {
  const { driver } = options;
  let routes: { topics: string[]; subscriptions: string[] } = { topics: [], subscriptions: [] };
  let routed = new Set<string>();
  /** Topics with an orderingAttribute: their subscriptions deliver a key's messages one at a time. */
  let ordered = new Set<string>();
  const subscribers = new Map<string, SqlSubscriber>();
  const notifier = new Notifier(
    options.listenUrl,
    options.log,
    (topic) => wake(topic),
    () => subscribers.forEach((s) => s.wake()),
    options.connectTimeoutMs,
  );

  // Group commit: publishes that arrive while a batch is being written wait and go
  // together in the next (up to 500), so under load one statement and one commit
  // serve many publishers, and a lone publish is written at once. A failed batch
  // fails every publish in it. Rows are inserted in batch order, so the sequence numbers
  // that order a key's messages follow the order of the publishes.
  const publishes = cargo<Pending>(async (all: Pending[]) => {
    const batch = all.filter((p) => routed.has(p.topic));
    if (batch.length === 0) return;
    const topics = [...new Set(batch.map((p) => p.topic))];
    // The NOTIFY goes in the same statement: it is sent at commit, one round trip for both.
    await driver.query(
      `WITH d AS (
         INSERT INTO pubsub_delivery (topic, subscription, message_id, payload, traceparent, ordering_key)
         SELECT m.topic, s.subscription, m.id, m.payload, m.traceparent, m.ordering_key
         FROM unnest($1::uuid[], $2::text[], $3::text[], $6::text[], $9::text[])
             WITH ORDINALITY AS m (id, topic, payload, traceparent, ordering_key, n)
           JOIN unnest($4::text[], $5::text[]) AS s (topic, subscription) ON s.topic = m.topic
         ORDER BY m.n)
       SELECT pg_notify($7, t) FROM unnest($8::text[]) AS t`,
      [
        batch.map((p) => p.id),
        batch.map((p) => p.topic),
        batch.map((p) => p.payload),
        routes.topics,
        routes.subscriptions,
        batch.map((p) => p.traceparent),
        notifyChannel,
        notifier.enabled ? topics : [],
        batch.map((p) => p.orderingKey),
      ],
    );
    for (const topic of topics) wake(topic);
  }, 500);

  function wake(topic: string): void {
    for (const s of subscribers.values()) if (s.spec.topic === topic) s.wake();
  }

  return {
    async start(topics: readonly TopicSpec[], subscriptions: readonly SubscriptionSpec[]) {
      await applyMigrations(driver, pubsubMigrations);
      routes = {
        topics: subscriptions.map((s) => s.topic),
        subscriptions: subscriptions.map((s) => s.name),
      };
      routed = new Set(routes.topics);
      ordered = new Set(topics.filter((t) => t.orderingAttribute !== undefined).map((t) => t.name));
      await keyUnkeyed(driver, [...ordered]);
      await notifier.start();
    },

    async publish(topic, payload, traceparent, orderingKey) {
      const id = randomUUID();
      // On an ordered topic a message without a key is a key of its own: it waits on no other.
      const key = ordered.has(topic) ? (orderingKey ?? id) : null;
      await publishes.pushAsync({ id, topic, payload, traceparent: traceparent ?? null, orderingKey: key });
      return id;
    },

    subscribe(spec, handler) {
      const subscriber = new SqlSubscriber(
        driver,
        spec,
        handler,
        options.log,
        options.pollIntervalMs ?? 1000,
        () => notifier.listening,
        ordered.has(spec.topic),
      );
      subscribers.set(`${spec.topic}\u0000${spec.name}`, subscriber);
      subscriber.wake();
    },

    async stats(): Promise<SubscriptionStats[]> {
      const rows = (await driver.query(
        `SELECT topic, subscription,
           count(*) FILTER (WHERE state = 'ready' OR (state = 'leased' AND visible_at <= now()))::int AS backlog,
           count(*) FILTER (WHERE state = 'leased' AND visible_at > now())::int AS in_flight,
           count(*) FILTER (WHERE state = 'dead')::int AS dead
         FROM pubsub_delivery GROUP BY topic, subscription`,
        [],
      )) as { topic: string; subscription: string; backlog: number; in_flight: number; dead: number }[];
      const found = new Map(rows.map((r) => [`${r.topic}\u0000${r.subscription}`, r]));
      return routes.topics.map((topic, i) => {
        const subscription = routes.subscriptions[i]!;
        const r = found.get(`${topic}\u0000${subscription}`);
        return { topic, subscription, backlog: r?.backlog ?? 0, inFlight: r?.in_flight ?? 0, deadLetters: r?.dead ?? 0 };
      });
    },

    async redrive(topic, subscription) {
      const moved = await driver.query(
        `UPDATE pubsub_delivery SET state = 'ready', attempts = 0, visible_at = now(), last_error = NULL
         WHERE topic = $1 AND subscription = $2 AND state = 'dead' RETURNING message_id`,
        [topic, subscription],
      );
      wake(topic);
      await notifier.notify(driver, [topic]);
      return moved.length;
    },

    async close(graceMs) {
      await Promise.all([...subscribers.values()].map((s) => s.close(graceMs)));
      // A key's next message became due when this instance acknowledged the one before,
      // and only this instance looked for it then: the others are told to look.
      const orderedTopics = [...new Set([...subscribers.values()].filter((s) => s.ordered).map((s) => s.spec.topic))];
      await notifier.notify(driver, orderedTopics);
      await notifier.close();
    },
  };
}
