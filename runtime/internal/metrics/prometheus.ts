import { collectDefaultMetrics, Counter, Registry } from "prom-client";
import { registerAppMetrics } from "./app-families.ts";
import { registerHttpFamilies } from "./http-families.ts";
import type { AppSeries, CronOutcome, DeliveryOutcome, Meter, ScrapeSources } from "./meter.ts";
import { registerPoolFamilies, registerPubSubBacklog } from "./scrape-time-gauges.ts";
import { RouteMeter, runtimeService, unmatchedEndpoint } from "./route-meter.ts";

/** The meter on prom-client, with a registry of its own (nothing global, so tests can start several). */
export function createMeter(sources: ScrapeSources): Meter {
  const registry = new Registry();
  // Node's event-loop delay monitor samples on a timer: once a second keeps an idle process nearly idle.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 1000 });
  const routes = new Map<string, RouteMeter>();
  const unmatched = new RouteMeter(runtimeService, unmatchedEndpoint, false);
  registerHttpFamilies(registry, () => [...routes.values(), unmatched]);

  const published = new Counter({
    name: "e_pubsub_published_total",
    help: "Messages published, by topic.",
    labelNames: ["topic"],
    registers: [registry],
  });
  const deliveries = new Counter({
    name: "e_pubsub_deliveries_total",
    help: "Deliveries to subscription handlers by outcome: delivered (acknowledged), retried (failed, to be delivered again), dead_lettered (failed its last attempt).",
    labelNames: ["topic", "subscription", "outcome"],
    registers: [registry],
  });
  registerPubSubBacklog(registry, sources.runningPubSub);
  const cronRuns = new Counter({
    name: "e_cron_runs_total",
    help: "Cron ticks on this instance by job and outcome: succeeded, failed, skipped (the previous run was still going), claim_failed (the database did not answer the claim).",
    labelNames: ["job", "outcome"],
    registers: [registry],
  });
  registerPoolFamilies(registry);
  const app = registerAppMetrics(registry);

  return {
    route(service, endpoint, typed) {
      const key = `${service}\0${endpoint}`;
      let route = routes.get(key);
      if (route === undefined) {
        route = new RouteMeter(service, endpoint, typed);
        routes.set(key, route);
      }
      return route;
    },
    unmatched,
    published: (topic) => published.inc({ topic }),
    delivered: (topic, subscription, outcome: DeliveryOutcome) => deliveries.inc({ topic, subscription, outcome }),
    cronRun: (job, outcome: CronOutcome) => cronRuns.inc({ job, outcome }),
    appSeries: (name, kind, labels, service): AppSeries => app.series(name, kind, labels, service),
    scrape: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
    stop: () => registry.clear(),
  };
}
