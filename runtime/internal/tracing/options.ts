import type { RingLimits } from "./ring.ts";

/** What tracing is started with (startTracing in mod.ts), read by the OpenTelemetry set-up it loads. */
export interface TracingOptions {
  /** Keep finished traces in memory for the development dashboard (TRACE_BUFFER of them). */
  readonly keep: Partial<RingLimits> | null;
  /** Export spans over OTLP/HTTP to this URL (…/v1/traces); null exports nothing. */
  readonly otlpTracesUrl: string | null;
  /** service.name of the exported spans. */
  readonly serviceName: string;
  /** deployment.environment.name of the exported spans. */
  readonly environment: string;
  /** messaging.system of publish and delivery spans: "postgresql" or "nats". */
  readonly messagingSystem: string;
}
