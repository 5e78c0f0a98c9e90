// encore.dev/metrics: counters and gauges, exported to Prometheus at /metrics (METRICS_PORT or METRICS_TOKEN).
export { Counter, CounterGroup, Gauge, GaugeGroup } from "./metrics.ts";
export type { MetricConfig } from "./metrics.ts";
