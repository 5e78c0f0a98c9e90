import { config } from "../config/mod.ts";
import { appName } from "../meta/app-name.ts";
import { appMeta } from "../meta/load.ts";
import { startTracing } from "./mod.ts";

/**
 * Tracing starts when traces have somewhere to go: the dashboard's ring (`run`), an OTLP
 * collector (OTEL_EXPORTER_OTLP_ENDPOINT, in `start` too). Resolves to how it is set up, for the log.
 */
export async function startAppTracing(keepTraces: boolean): Promise<string> {
  const cfg = config();
  const { buffer, otlpTracesUrl, serviceName } = cfg.tracing;
  const started = await startTracing({
    keep: keepTraces ? { maxTraces: buffer } : null,
    otlpTracesUrl,
    serviceName: serviceName ?? appName(appMeta(), cfg.appRoot),
    environment: cfg.environmentType,
    messagingSystem: cfg.natsUrl ? "nats" : "postgresql",
  });
  if (!started) return "off";
  const kept = keepTraces ? [`keeping the last ${buffer} traces`] : [];
  return [...kept, ...(otlpTracesUrl ? [`exporting to ${otlpTracesUrl}`] : [])].join(", ");
}
