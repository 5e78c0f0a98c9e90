// Where the dashboard's traces come from: the tracing core's in-memory ring, kept by the
// app process when the dashboard is on.
// TODO(lead): once the tracing core (h/trace) is merged, return its `traceStore()` from
// ../tracing/mod.ts here, and its settings (how many traces it keeps, the OTLP endpoint it
// exports to) from tracingSettings. Until then the dashboard has no traces: its list is
// empty, a trace is not found, and no trace event is sent.
import type { TraceStore } from "../tracing/records.ts";

export function dashboardTraceStore(): TraceStore | null {
  return null;
}

export interface TracingSettings {
  /** How many finished traces the ring keeps. */
  readonly keep: number;
  readonly otlpEndpoint: string | null;
}

export function tracingSettings(): TracingSettings {
  return { keep: 0, otlpEndpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || null };
}
