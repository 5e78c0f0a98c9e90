import type { Meter, ScrapeSources } from "./meter.ts";

export type { AppSeries, CronOutcome, DeliveryOutcome, Meter, ScrapeSources } from "./meter.ts";
export { RouteMeter, runtimeService, unmatchedEndpoint } from "./route-meter.ts";

/**
 * The meter while metrics are on (METRICS_PORT or METRICS_TOKEN), null while they are off.
 * Every instrumentation point tests this binding before anything else: with metrics off
 * that test is all they cost, and prom-client is never loaded.
 */
export let meter: Meter | null = null;

/** Starts collecting (once per process, at boot, before routes are compiled and app modules load). */
export async function startMetrics(sources: ScrapeSources): Promise<Meter> {
  if (meter !== null) return meter;
  const { createMeter } = await import("./prometheus.ts");
  meter = createMeter(sources);
  return meter;
}

/** Stops collecting; what was counted is dropped. */
export function stopMetrics(): void {
  meter?.stop();
  meter = null;
}
