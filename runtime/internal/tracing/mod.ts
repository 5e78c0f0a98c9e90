import type { TraceData } from "./trace-data.ts";
import type { TraceStore } from "./records.ts";
import type { SpanRecorder } from "./recorder.ts";
import type { TracingOptions } from "./options.ts";

export type { SpanRecorder } from "./recorder.ts";

/**
 * The recorder while tracing is on, null while it is off. Every instrumentation point
 * tests this binding, once, before anything else: with tracing off that test is all
 * recording costs, and nothing of OpenTelemetry is loaded or called.
 */
export let recorder: SpanRecorder | null = null;

/**
 * Starts tracing when there is somewhere for traces to go (the ring, an OTLP collector);
 * resolves to whether it did. Once per process, at boot, before the server compiles its
 * routes: a route decides then whether it records.
 */
export async function startTracing(options: TracingOptions): Promise<boolean> {
  if (recorder !== null) return true;
  if (options.keep === null && options.otlpTracesUrl === null) return false;
  const { createRecorder } = await import("./otel-recorder.ts");
  recorder = createRecorder(options);
  return true;
}

/** Exports what is pending, waiting at most `timeoutMs`, and turns tracing off. */
export async function stopTracing(timeoutMs: number): Promise<void> {
  const stopping = recorder;
  recorder = null;
  await stopping?.shutdown(timeoutMs);
}

/** The ring of finished traces; null when none is kept (the dashboard is off). */
export function traceStore(): TraceStore | null {
  return recorder === null ? null : recorder.store;
}

/** What currentRequest().trace reports: the active trace, when tracing is on. */
export function currentTraceData(): TraceData | undefined {
  return recorder === null ? undefined : recorder.traceData();
}
