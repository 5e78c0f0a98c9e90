import { labelPairs, SeriesOf, type LabelPairs, type LabelValues } from "../../internal/metrics/app-metric.ts";

/** Options of a metric; none yet, as in encore.dev. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface MetricConfig {}

const noLabels: LabelPairs = [];

/**
 * A value that only increases: requests handled, bytes processed. Exported at /metrics with a
 * `service` label (the service using it) when metrics are on; a no-op otherwise.
 * @example
 * export const ordersProcessed = new Counter("orders_processed");
 * ordersProcessed.increment();
 */
export class Counter {
  readonly #series: SeriesOf;

  constructor(name: string, cfg?: MetricConfig);
  /** @internal A group's member, with its labels. */
  constructor(name: string, cfg: MetricConfig | undefined, labels: LabelPairs);
  constructor(name: string, _cfg?: MetricConfig, labels: LabelPairs = noLabels) {
    this.#series = new SeriesOf(name, "counter", labels);
  }

  /**
   * Adds `value` (default 1), floored to a whole number as Encore does. A counter never
   * decreases: a negative or non-finite value is ignored rather than thrown, because
   * recording a metric must never fail the request that records it.
   */
  increment(value: number = 1): void {
    const series = this.#series.current();
    if (series === undefined) return;
    if (Number.isFinite(value) && value >= 0) series.value += Math.floor(value);
  }

  /** This counter, to pass around (Encore's static analysis follows references, not values). */
  ref(): Counter {
    return this;
  }
}

/**
 * Counters by labels: each combination of label values is a series of its own (keep them to
 * tens or hundreds). Label fields are string, number (floored) or boolean.
 * @example
 * interface Labels { success: boolean }
 * export const ordersProcessed = new CounterGroup<Labels>("orders_processed");
 * ordersProcessed.with({ success: true }).increment();
 */
export class CounterGroup<L extends Record<keyof L, string | number | boolean>> {
  readonly #members = new Map<string, Counter>();

  constructor(
    private readonly name: string,
    private readonly cfg?: MetricConfig,
  ) {}

  /** The counter of these label values. */
  with(labels: L): Counter {
    const pairs = labelPairs(labels as LabelValues);
    const key = JSON.stringify(pairs);
    let member = this.#members.get(key);
    if (member === undefined) {
      member = new Counter(this.name, this.cfg, pairs);
      this.#members.set(key, member);
    }
    return member;
  }

  ref(): CounterGroup<L> {
    return this;
  }
}

/**
 * A value that goes up and down: connections open, items queued. Exported with a `service`
 * label when metrics are on; a no-op otherwise.
 * @example
 * export const queueLength = new Gauge("queue_length");
 * queueLength.set(42);
 */
export class Gauge {
  readonly #series: SeriesOf;

  constructor(name: string, cfg?: MetricConfig);
  /** @internal A group's member, with its labels. */
  constructor(name: string, cfg: MetricConfig | undefined, labels: LabelPairs);
  constructor(name: string, _cfg?: MetricConfig, labels: LabelPairs = noLabels) {
    this.#series = new SeriesOf(name, "gauge", labels);
  }

  set(value: number): void {
    const series = this.#series.current();
    if (series !== undefined) series.value = value;
  }

  ref(): Gauge {
    return this;
  }
}

/** Gauges by labels, as CounterGroup is for counters. */
export class GaugeGroup<L extends Record<keyof L, string | number | boolean>> {
  readonly #members = new Map<string, Gauge>();

  constructor(
    private readonly name: string,
    private readonly cfg?: MetricConfig,
  ) {}

  /** The gauge of these label values. */
  with(labels: L): Gauge {
    const pairs = labelPairs(labels as LabelValues);
    const key = JSON.stringify(pairs);
    let member = this.#members.get(key);
    if (member === undefined) {
      member = new Gauge(this.name, this.cfg, pairs);
      this.#members.set(key, member);
    }
    return member;
  }

  ref(): GaugeGroup<L> {
    return this;
  }
}
