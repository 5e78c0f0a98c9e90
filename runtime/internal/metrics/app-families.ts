import { Counter, Gauge, type Registry } from "prom-client";
import { rootLogger } from "../log/root.ts";
import type { AppSeries } from "./meter.ts";

interface Series extends AppSeries {
  readonly labels: Readonly<Record<string, string>>;
}

interface Family {
  readonly kind: "counter" | "gauge";
  readonly series: Map<string, Series>;
}

export interface AppMetrics {
  series(name: string, kind: "counter" | "gauge", labels: readonly (readonly [string, string])[], service: string): AppSeries;
}

/**
 * The app's encore.dev/metrics metrics: plain numbers the metric objects update (each keeps
 * the series it uses, so an increment is an addition), handed to prom-client at scrape,
 * each series labelled with its service as Encore labels it.
 */
export function registerAppMetrics(registry: Registry): AppMetrics {
  const families = new Map<string, Family>();
  const familyOf = (name: string, kind: "counter" | "gauge", labelNames: string[]): Family => {
    let family = families.get(name);
    if (family === undefined) {
      family = { kind, series: new Map() };
      families.set(name, family);
      exportFamily(registry, name, family, labelNames);
    }
    return family;
  };
  return {
    series(name, kind, labels, service) {
      const family = familyOf(name, kind, [...labels.map(([key]) => key), "service"]);
      const key = JSON.stringify([labels, service]);
      let series = family.series.get(key);
      if (series === undefined) {
        series = { labels: { ...Object.fromEntries(labels), service }, value: 0 };
        family.series.set(key, series);
      }
      return series;
    },
  };
}

function exportFamily(registry: Registry, name: string, family: Family, labelNames: string[]): void {
  const help = `${family.kind === "counter" ? "Counter" : "Gauge"} ${name} of the app (encore.dev/metrics).`;
  const collect = (write: (labels: Record<string, string>, value: number) => void) => {
    for (const series of family.series.values()) {
      try {
        write(series.labels, series.value);
      } catch (err) {
        // Only reachable with labels the metric's type does not declare (untyped code).
        rootLogger().warn({ err, metric: name, labels: series.labels }, "metrics: a series with labels its metric does not declare is left out");
      }
    }
  };
  try {
    const registers = [registry];
    if (family.kind === "counter") {
      new Counter({
        name,
        help,
        labelNames,
        registers,
        collect() {
          this.reset();
          collect((labels, value) => this.inc(labels, value));
        },
      });
    } else {
      new Gauge({
        name,
        help,
        labelNames,
        registers,
        collect() {
          this.reset();
          collect((labels, value) => this.set(labels, value));
        },
      });
    }
  } catch (err) {
    // A name the process metrics already use (process_*, nodejs_*): counted, never exported.
    rootLogger().error({ err, metric: name }, "metrics: the app's metric cannot be exported under this name");
  }
}
