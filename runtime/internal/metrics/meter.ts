// What the instrumentation points call while metrics are on. Types only: the implementation
// (prometheus.ts) and prom-client with it are loaded when metrics start, so a process that
// never serves metrics never loads them.
import type { RouteMeter } from "./route-meter.ts";

/** What became of one delivery of a message to a subscription's handler. */
export type DeliveryOutcome = "delivered" | "retried" | "dead_lettered";

/** What became of one tick of a cron job on this instance. */
export type CronOutcome = "succeeded" | "failed" | "skipped" | "claim_failed";

/** One series of an encore.dev/metrics metric: its labels (the service among them) and its value. */
export interface AppSeries {
  value: number;
}

export interface Meter {
  /** The series of a route, made once when the route is compiled; the same for the same endpoint. */
  route(service: string, endpoint: string, typed: boolean): RouteMeter;
  /** Responses to requests no route matched, under one fixed label. */
  readonly unmatched: RouteMeter;
  published(topic: string): void;
  delivered(topic: string, subscription: string, outcome: DeliveryOutcome): void;
  cronRun(job: string, outcome: CronOutcome): void;
  /**
   * The series of an encore.dev/metrics metric for these labels (snake_case names, number
   * values floored) and service; made on first use, the same object after.
   */
  appSeries(name: string, kind: "counter" | "gauge", labels: readonly (readonly [string, string])[], service: string): AppSeries;
  /** The Prometheus text exposition of everything. */
  scrape(): Promise<{ readonly contentType: string; readonly body: string }>;
  /** Stops what collection runs in the background (the event-loop delay monitor). */
  stop(): void;
}

/**
 * Where the gauges read at scrape time (scrape-time-gauges.ts) find levels kept by other
 * parts of the runtime, handed to startMetrics by whoever starts it (server/lifecycle/start.ts).
 * Pub/sub reports to the meter (pubsub/mod.ts counts publishes and deliveries), so the meter
 * is given pub/sub's state rather than importing it back.
 */
export interface ScrapeSources {
  /** The started pub/sub provider, if any (pubsub/mod.ts runningPubSub). */
  readonly runningPubSub: () => Promise<{ stats(): Promise<readonly SubscriptionLevels[]> }> | undefined;
}

/**
 * One subscription's levels, as the pub/sub provider reports them (its SubscriptionStats);
 * stated here in the meter's own terms, since pub/sub imports the meter.
 */
export interface SubscriptionLevels {
  readonly topic: string;
  readonly subscription: string;
  /** Messages waiting for delivery, including those waiting out a retry backoff. */
  readonly backlog: number;
  /** Messages delivered and neither acknowledged nor past their ack deadline. */
  readonly inFlight: number;
  readonly deadLetters: number;
}
