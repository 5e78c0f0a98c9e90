import { Counter, type Metric, type Registry } from "prom-client";
import { latencyBuckets, type RouteMeter } from "./route-meter.ts";

/**
 * The request families, read from the routes' plain numbers at scrape:
 * - e_requests_total{service,endpoint,code,status_class}: Encore's own counter (service,
 *   endpoint, code), with the status class beside the code;
 * - e_request_duration_seconds{service,endpoint,status_class}: a histogram.
 */
export function registerHttpFamilies(registry: Registry, routes: () => Iterable<RouteMeter>): void {
  new Counter({
    name: "e_requests_total",
    help: "Requests answered, by service, endpoint, Encore error code (ok on success) and status class.",
    labelNames: ["service", "endpoint", "code", "status_class"],
    registers: [registry],
    collect() {
      this.reset();
      for (const route of routes()) {
        for (const { code, statusClass, count } of route.codes.values()) {
          this.inc({ service: route.service, endpoint: route.endpoint, code, status_class: statusClass }, count);
        }
      }
    },
  });
  // prom-client's Histogram can only be fed one observation at a time; this one reports the
  // routes' bucket counts in the shape its registry formats (what a Histogram's get() returns).
  const head = {
    name: "e_request_duration_seconds",
    help: "Time from a request's arrival to the end of its response, by service, endpoint and status class.",
    type: "histogram",
    aggregator: "sum",
  } as const;
  const latency = { ...head, reset() {}, get: async () => ({ ...head, values: latencyValues(routes()) }) };
  registry.registerMetric(latency as unknown as Metric);
}

interface Value {
  readonly metricName: string;
  readonly labels: Readonly<Record<string, string | number>>;
  readonly value: number;
}

function latencyValues(routes: Iterable<RouteMeter>): Value[] {
  const name = "e_request_duration_seconds";
  const values: Value[] = [];
  for (const route of routes) {
    for (const latency of route.latency) {
      if (latency === undefined) continue;
      const labels = { service: route.service, endpoint: route.endpoint, status_class: latency.statusClass };
      let cumulative = 0;
      for (let i = 0; i < latencyBuckets.length; i++) {
        cumulative += latency.buckets[i]!;
        values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: latencyBuckets[i]! }, value: cumulative });
      }
      values.push({ metricName: `${name}_bucket`, labels: { ...labels, le: "+Inf" }, value: latency.count });
      values.push({ metricName: `${name}_sum`, labels, value: latency.sum });
      values.push({ metricName: `${name}_count`, labels, value: latency.count });
    }
  }
  return values;
}
