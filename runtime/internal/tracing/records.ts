// What the runtime keeps of one trace for the development dashboard: plain JSON, so the
// dashboard's server sends it as it is and its front end reads the same types.

/** What a span stands for; the dashboard picks its colour and label from this. */
export type SpanKind =
  | "request" // an API call over HTTP: the root of an "api" trace
  | "auth" // the auth handler
  | "handler" // an endpoint's handler, also for an in-process call
  | "call" // a call to another service through ~encore/clients
  | "sql" // one SQL statement
  | "publish" // Topic.publish
  | "message" // a subscription's delivery of one message: the root of a "pubsub" trace
  | "cron" // a cron job's run: the root of a "cron" trace
  | "objects" // one object-storage operation
  | "cache"; // one cache operation (encore.dev/storage/cache)

export type AttributeValue = string | number | boolean;

export interface SpanRecord {
  readonly spanId: string;
  /** Null for the trace's root. */
  readonly parentSpanId: string | null;
  readonly kind: SpanKind;
  /** e.g. "url.shorten", "INSERT INTO url ...", "publish url-events", "get qr/abc.png". */
  readonly name: string;
  /** The service it ran in, where one is known. */
  readonly service: string | null;
  /** Epoch milliseconds, fractional. */
  readonly startMs: number;
  readonly durationMs: number;
  /** The error's message when the span failed; null when it succeeded. */
  readonly error: string | null;
  /**
   * OpenTelemetry attributes, by semantic-convention names where one exists:
   * db.query.text, db.response.returned_rows, messaging.destination.name,
   * http.request.method, url.path, http.response.status_code, ...
   */
  readonly attributes: Readonly<Record<string, AttributeValue>>;
}

export interface LogRecord {
  /** The span that was active when the line was written; null when none was. */
  readonly spanId: string | null;
  readonly timeMs: number;
  readonly level: "trace" | "debug" | "info" | "warn" | "error";
  readonly message: string;
  /** The line's fields, JSON-safe and size-capped. */
  readonly fields: Readonly<Record<string, unknown>>;
}

/** One row of the dashboard's trace list. */
export interface TraceSummary {
  readonly traceId: string;
  readonly kind: "api" | "pubsub" | "cron";
  /** The endpoint's, subscription's or cron job's service. */
  readonly service: string;
  /** Endpoint name, subscription name or cron job id. */
  readonly name: string;
  /** For "api": the HTTP method and path as requested. */
  readonly method: string | null;
  readonly path: string | null;
  /** For "api": the HTTP status answered; null otherwise. */
  readonly status: number | null;
  /** The root span's error message; null when it succeeded. */
  readonly error: string | null;
  readonly startMs: number;
  readonly durationMs: number;
  readonly spanCount: number;
  readonly logCount: number;
}

export interface TraceDetail extends TraceSummary {
  /** In start order. */
  readonly spans: readonly SpanRecord[];
  readonly logs: readonly LogRecord[];
  /** Spans and log lines left out once the trace reached its per-trace bound. */
  readonly droppedSpans: number;
  readonly droppedLogs: number;
}

export interface TraceFilter {
  readonly service?: string;
  readonly name?: string;
  /** "ok", "error", or an HTTP status such as "404". */
  readonly status?: string;
  readonly minDurationMs?: number;
  /** At most this many, newest first (default 100). */
  readonly limit?: number;
}

/** The in-memory ring of finished traces, newest first; bounded in count and in bytes. */
export interface TraceStore {
  list(filter?: TraceFilter): TraceSummary[];
  get(traceId: string): TraceDetail | undefined;
  /** Called once for each trace when its root span ends; returns the unsubscribe function. */
  onTrace(listener: (trace: TraceSummary) => void): () => void;
}
