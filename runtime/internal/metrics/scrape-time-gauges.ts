// Gauges read from the engines when /metrics is scraped, not counted as things happen:
// what they report is a level (connections, messages waiting), known where it is kept.
import { Gauge, type Registry } from "prom-client";
import { rootLogger } from "../log/root.ts";
import { openedDatabases } from "../sql/databases.ts";
import type { ScrapeSources, SubscriptionLevels } from "./meter.ts";

/** A scrape waits at most this long for pub/sub's figures; without them the rest is still answered. */
const backlogTimeoutMs = 2_000;

/**
 * Connections of each database's pool, labelled by the name the app gives the database:
 * e_db_pool_connections{database,state}, e_db_pool_waiting, e_db_pool_max.
 */
export function registerPoolFamilies(registry: Registry): void {
  const pools = () => openedDatabases().flatMap(({ name, driver }) => (driver.poolStats ? [{ database: name, stats: driver.poolStats() }] : []));
  new Gauge({
    name: "e_db_pool_connections",
    help: "Connections of the database's pool by state: in_use (running a query or held by a transaction) or idle.",
    labelNames: ["database", "state"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { database, stats } of pools()) {
        this.set({ database, state: "in_use" }, stats.inUse);
        this.set({ database, state: "idle" }, stats.idle);
      }
    },
  });
  new Gauge({
    name: "e_db_pool_waiting",
    help: "Queries and transactions waiting for a connection of the database's pool, all being in use.",
    labelNames: ["database"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { database, stats } of pools()) this.set({ database }, stats.waiting);
    },
  });
  new Gauge({
    name: "e_db_pool_max",
    help: "Connections the database's pool may open.",
    labelNames: ["database"],
    registers: [registry],
    collect() {
      this.reset();
      for (const { database, stats } of pools()) this.set({ database }, stats.max);
    },
  });
}

/**
 * Per subscription, from the provider's own bookkeeping (one query on the SQL provider, the
 * consumers' info on NATS): messages waiting (e_pubsub_backlog), delivered but not yet
 * acknowledged (e_pubsub_in_flight), dead letters (e_pubsub_dead_letters). Absent while
 * pub/sub is not running or does not answer in time.
 */
export function registerPubSubBacklog(registry: Registry, runningPubSub: ScrapeSources["runningPubSub"]): void {
  let pending: Promise<readonly SubscriptionLevels[]> | null = null;
  // The three gauges are collected together on each scrape: one read of the stats serves them all.
  const stats = (): Promise<readonly SubscriptionLevels[]> => {
    pending ??= readStats(runningPubSub).finally(() => setImmediate(() => (pending = null)));
    return pending;
  };
  const gauge = (name: string, help: string, pick: (s: SubscriptionLevels) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ["topic", "subscription"],
      registers: [registry],
      async collect() {
        this.reset();
        for (const s of await stats()) this.set({ topic: s.topic, subscription: s.subscription }, pick(s));
      },
    });
  gauge("e_pubsub_backlog", "Messages waiting for delivery to the subscription, those waiting out a retry backoff included.", (s) => s.backlog);
  gauge("e_pubsub_in_flight", "Messages delivered to the subscription and not yet acknowledged.", (s) => s.inFlight);
  gauge("e_pubsub_dead_letters", "Messages of the subscription that failed every attempt, kept for redrive.", (s) => s.deadLetters);
}

async function readStats(runningPubSub: ScrapeSources["runningPubSub"]): Promise<readonly SubscriptionLevels[]> {
  const running = runningPubSub();
  if (!running) return [];
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${backlogTimeoutMs} ms`)), backlogTimeoutMs);
  });
  try {
    return await Promise.race([running.then((p) => p.stats()), timeout]);
  } catch (err) {
    rootLogger().warn({ err }, "metrics: pub/sub backlog unavailable for this scrape");
    return [];
  } finally {
    clearTimeout(timer);
  }
}
