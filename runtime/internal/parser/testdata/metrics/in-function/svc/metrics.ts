import { Gauge } from "encore.dev/metrics";

export function gaugeFor(): Gauge {
  return new Gauge("queue_length");
}
