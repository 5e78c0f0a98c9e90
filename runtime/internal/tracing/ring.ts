import type { Context } from "@opentelemetry/api";
import type { ReadableSpan, Span, SpanProcessor } from "@opentelemetry/sdk-trace-base";
import {
  cronJobAttr,
  endpointAttr,
  httpMethodAttr,
  httpStatusAttr,
  messagingSubscriptionAttr,
  spanKindAttr,
  urlPathAttr,
} from "./attributes.ts";
import type { LogRecord, SpanRecord, TraceDetail, TraceFilter, TraceStore, TraceSummary } from "./records.ts";
import { spanRecordBytes, toSpanRecord } from "./span-record.ts";

export interface RingLimits {
  /** Finished traces kept (TRACE_BUFFER). */
  readonly maxTraces: number;
  /** What all traces together may take, roughly, in bytes: finished ones are evicted, oldest first, to stay within it. */
  readonly maxBytes: number;
  /** Spans kept per trace; more are counted in droppedSpans (the root span is always kept). */
  readonly maxSpansPerTrace: number;
  /** Log lines kept per trace; more are counted in droppedLogs. */
  readonly maxLogsPerTrace: number;
}

export const defaultRingLimits: RingLimits = {
  maxTraces: 1000,
  maxBytes: 64 * 1024 * 1024,
  maxSpansPerTrace: 500,
  maxLogsPerTrace: 500,
};

/** How much the ring dropped to stay within its bounds, since it started. */
export interface RingStats {
  readonly traces: number;
  readonly openTraces: number;
  readonly bytes: number;
  /** Traces evicted (finished, for room) or abandoned (still open when too many were). */
  readonly evictedTraces: number;
  readonly droppedSpans: number;
  readonly droppedLogs: number;
}

/** The kinds of span that start a trace the ring keeps. */
const rootKinds: ReadonlySet<unknown> = new Set(["request", "message", "cron"]);

interface Trace {
  readonly traceId: string;
  readonly rootSpanId: string;
  /** Set when the root span ends. */
  root: SpanRecord | null;
  readonly spans: SpanRecord[];
  readonly logs: LogRecord[];
  droppedSpans: number;
  droppedLogs: number;
  bytes: number;
}

/**
 * The development dashboard's traces: a span processor that groups ended spans by
 * trace, and keeps the last `maxTraces` finished traces within `maxBytes`. A trace
 * starts with a root span of the runtime's (an API call, a delivery, a cron run);
 * other spans join the trace they belong to, and are ignored when it is no longer
 * kept. A trace is finished, listed and announced when its root span ends; spans
 * ending after that are still added to it.
 */
export class TraceRing implements SpanProcessor, TraceStore {
  readonly #limits: RingLimits;
  /** Traces whose root span is still running, oldest first. */
  readonly #open = new Map<string, Trace>();
  /** Finished traces, oldest first. */
  readonly #kept = new Map<string, Trace>();
  readonly #listeners = new Set<(trace: TraceSummary) => void>();
  #bytes = 0;
  #evicted = 0;
  #droppedSpans = 0;
  #droppedLogs = 0;

  constructor(limits: Partial<RingLimits> = {}) {
    this.#limits = { ...defaultRingLimits, ...limits };
  }

  onStart(span: Span, _parentContext: Context): void {
    if (span.parentSpanContext !== undefined || !rootKinds.has(span.attributes[spanKindAttr])) return;
    const { traceId, spanId } = span.spanContext();
    this.#open.set(traceId, { traceId, rootSpanId: spanId, root: null, spans: [], logs: [], droppedSpans: 0, droppedLogs: 0, bytes: 0 });
    // Roots that never end (a response never closed) must not pile up.
    if (this.#open.size > this.#limits.maxTraces) this.#forget(this.#open, this.#open.keys().next().value!);
  }

  onEnd(span: ReadableSpan): void {
    const { traceId, spanId } = span.spanContext();
    const trace = this.#open.get(traceId) ?? this.#kept.get(traceId);
    if (!trace) return;
    const isRoot = spanId === trace.rootSpanId;
    if (!isRoot && trace.spans.length >= this.#limits.maxSpansPerTrace) return this.#dropSpan(trace);
    const record = toSpanRecord(span);
    if (!this.#admit(trace, spanRecordBytes(record)) && !isRoot) return this.#dropSpan(trace);
    trace.spans.push(record);
    if (!isRoot) return;
    trace.root = record;
    this.#open.delete(traceId);
    this.#kept.set(traceId, trace);
    while (this.#kept.size > this.#limits.maxTraces) this.#forget(this.#kept, this.#kept.keys().next().value!);
    const summary = summarize(trace, record);
    for (const listener of this.#listeners) {
      try {
        listener(summary);
      } catch {
        // A listener's failure is its own: the spans of the request that ended are not at fault.
      }
    }
  }

  /** Adds a log line to its trace, if the trace is kept. */
  addLog(traceId: string, line: LogRecord): void {
    const trace = this.#open.get(traceId) ?? this.#kept.get(traceId);
    if (!trace) return;
    const bytes = 120 + 2 * (line.message.length + JSON.stringify(line.fields).length);
    if (trace.logs.length >= this.#limits.maxLogsPerTrace || !this.#admit(trace, bytes)) {
      trace.droppedLogs++;
      this.#droppedLogs++;
      return;
    }
    trace.logs.push(line);
  }

  list(filter: TraceFilter = {}): TraceSummary[] {
    const limit = filter.limit ?? 100;
    const found: TraceSummary[] = [];
    const newestFirst = [...this.#kept.values()].reverse();
    for (const trace of newestFirst) {
      if (found.length >= limit) break;
      const summary = summarize(trace, trace.root!);
      if (matches(summary, filter)) found.push(summary);
    }
    return found;
  }

  get(traceId: string): TraceDetail | undefined {
    const trace = this.#kept.get(traceId);
    if (!trace) return undefined;
    return {
      ...summarize(trace, trace.root!),
      spans: [...trace.spans].sort(inStartOrder),
      logs: [...trace.logs],
      droppedSpans: trace.droppedSpans,
      droppedLogs: trace.droppedLogs,
    };
  }

  onTrace(listener: (trace: TraceSummary) => void): () => void {
    // Wrapped, so the same function subscribed twice is told twice and unsubscribed once per call.
    const wrapped = (trace: TraceSummary) => listener(trace);
    this.#listeners.add(wrapped);
    return () => this.#listeners.delete(wrapped);
  }

  stats(): RingStats {
    return {
      traces: this.#kept.size,
      openTraces: this.#open.size,
      bytes: this.#bytes,
      evictedTraces: this.#evicted,
      droppedSpans: this.#droppedSpans,
      droppedLogs: this.#droppedLogs,
    };
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    this.#listeners.clear();
    return Promise.resolve();
  }

  /** Makes room for `bytes` more in `trace` by evicting the oldest finished traces; false when there is none left to evict. */
  #admit(trace: Trace, bytes: number): boolean {
    while (this.#bytes + bytes > this.#limits.maxBytes) {
      const oldest = this.#oldestKeptBut(trace.traceId);
      if (oldest === undefined) return false;
      this.#forget(this.#kept, oldest);
    }
    trace.bytes += bytes;
    this.#bytes += bytes;
    return true;
  }

  #oldestKeptBut(traceId: string): string | undefined {
    for (const id of this.#kept.keys()) if (id !== traceId) return id;
    return undefined;
  }

  #forget(from: Map<string, Trace>, traceId: string): void {
    const trace = from.get(traceId)!;
    from.delete(traceId);
    this.#bytes -= trace.bytes;
    this.#evicted++;
  }

  #dropSpan(trace: Trace): void {
    trace.droppedSpans++;
    this.#droppedSpans++;
  }
}

/** By start time; the root first when a child started in the same instant. */
function inStartOrder(a: SpanRecord, b: SpanRecord): number {
  return a.startMs - b.startMs || (a.parentSpanId === null ? -1 : 0) - (b.parentSpanId === null ? -1 : 0);
}

function summarize(trace: Trace, root: SpanRecord): TraceSummary {
  const a = root.attributes;
  const kind = root.kind === "request" ? "api" : root.kind === "message" ? "pubsub" : "cron";
  const nameAttr = kind === "api" ? endpointAttr : kind === "pubsub" ? messagingSubscriptionAttr : cronJobAttr;
  const name = a[nameAttr];
  const status = a[httpStatusAttr];
  return {
    traceId: trace.traceId,
    kind,
    service: root.service ?? "",
    name: typeof name === "string" ? name : root.name,
    method: kind === "api" ? String(a[httpMethodAttr] ?? "") || null : null,
    path: kind === "api" ? String(a[urlPathAttr] ?? "") || null : null,
    status: typeof status === "number" ? status : null,
    error: root.error,
    startMs: root.startMs,
    durationMs: root.durationMs,
    spanCount: trace.spans.length,
    logCount: trace.logs.length,
  };
}

/** Service and name match exactly; status is "ok", "error" or an HTTP status. */
function matches(trace: TraceSummary, filter: TraceFilter): boolean {
  if (filter.service !== undefined && trace.service !== filter.service) return false;
  if (filter.name !== undefined && trace.name !== filter.name) return false;
  if (filter.minDurationMs !== undefined && trace.durationMs < filter.minDurationMs) return false;
  if (filter.status === undefined) return true;
  const failed = trace.error !== null || (trace.status !== null && trace.status >= 500);
  if (filter.status === "ok") return !failed;
  if (filter.status === "error") return failed;
  return trace.status !== null && String(trace.status) === filter.status;
}
