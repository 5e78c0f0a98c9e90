import { ConfigError, parseHttpUrl, type Env } from "./values.ts";

/** How the runtime records traces (TRACE_BUFFER, OTEL_*), part of RuntimeConfig. */
export interface TracingConfig {
  /** TRACE_BUFFER: the finished traces the development dashboard keeps in memory. */
  readonly buffer: number;
  /**
   * Where spans are exported over OTLP/HTTP (JSON): OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as
   * given, else OTEL_EXPORTER_OTLP_ENDPOINT with "/v1/traces" appended, as OpenTelemetry's
   * SDKs read them; null exports nothing.
   */
  readonly otlpTracesUrl: string | null;
  /** OTEL_SERVICE_NAME: service.name of the exported spans; null names them after the app. */
  readonly serviceName: string | null;
}

export function parseTracingConfig(env: Env): TracingConfig {
  const base = urlAsGiven("OTEL_EXPORTER_OTLP_ENDPOINT", env.OTEL_EXPORTER_OTLP_ENDPOINT);
  const traces = urlAsGiven("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
  return Object.freeze({
    buffer: parseBuffer(env.TRACE_BUFFER),
    otlpTracesUrl: traces ?? (base === null ? null : `${base.replace(/\/+$/, "")}/v1/traces`),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || null,
  });
}

function parseBuffer(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === "") return 1000;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 100_000) {
    throw new ConfigError("TRACE_BUFFER", `must be a whole number from 1 to 100000, got "${raw}"`);
  }
  return value;
}

/** Validated, then used as written: OpenTelemetry's SDKs take these URLs as given. */
function urlAsGiven(name: string, raw: string | undefined): string | null {
  return parseHttpUrl(name, raw) === null ? null : raw!.trim();
}
