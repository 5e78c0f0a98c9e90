import { appMeta } from "../meta/load.ts";
import type { MetricMeta } from "../meta/types.ts";
import { currentRequestMeta } from "../reqtrack/mod.ts";
import { snakeCase } from "./label-names.ts";
import type { AppSeries, Meter } from "./meter.ts";
import { meter } from "./mod.ts";

export type LabelValues = Readonly<Record<string, string | number | boolean>>;
export type LabelPairs = readonly (readonly [string, string])[];

let usersByMetric: ReadonlyMap<string, readonly string[]> | undefined;

/** Which services use each metric: the app's metadata, read on first use, unless given here (a test's fixture app). */
export function useMetricsMeta(metrics: readonly MetricMeta[]): void {
  usersByMetric = new Map(metrics.map((m) => [m.name, m.usedBy] as const));
}

/**
 * The service a metric's series is labelled with, as Encore resolves it: the one service
 * that uses the metric (from the parser's metadata), so a gauge set by a timer outside any
 * request still has it; else the service handling the current request or message; else
 * none, and the value is not recorded.
 */
export function serviceOfMetric(name: string): string | undefined {
  if (usersByMetric === undefined) useMetricsMeta(appMeta().metrics ?? []);
  const users = usersByMetric!.get(name);
  if (users?.length === 1) return users[0];
  const request = currentRequestMeta();
  if (request === undefined) return undefined;
  return request.type === "api-call" ? request.api.service : request.service;
}

/** Labels as exported: names in snake_case (as Encore writes them), numbers floored, sorted by name. */
export function labelPairs(labels: LabelValues): LabelPairs {
  return Object.entries(labels)
    .map(([key, value]) => [snakeCase(key), typeof value === "number" ? String(Math.floor(value)) : String(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The series one metric object (one label set) updates, per service, made on first use:
 * after that an update is a lookup and an addition. Undefined while metrics are off or when
 * no service can be named. Dropped when the meter changes (a test starting metrics anew).
 */
export class SeriesOf {
  #meter: Meter | null = null;
  readonly #byService = new Map<string, AppSeries>();

  constructor(
    private readonly name: string,
    private readonly kind: "counter" | "gauge",
    private readonly labels: LabelPairs,
  ) {}

  current(): AppSeries | undefined {
    const m = meter;
    if (m === null) return undefined;
    if (m !== this.#meter) {
      this.#meter = m;
      this.#byService.clear();
    }
    const service = serviceOfMetric(this.name);
    if (service === undefined) return undefined;
    let series = this.#byService.get(service);
    if (series === undefined) {
      series = m.appSeries(this.name, this.kind, this.labels, service);
      this.#byService.set(service, series);
    }
    return series;
  }
}
