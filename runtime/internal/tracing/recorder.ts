// What the instrumentation points call while tracing is on. Types only: the
// implementation (otel-recorder.ts) and OpenTelemetry with it are loaded when tracing
// starts, so a process that never traces never loads them.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { EndpointMeta } from "../meta/types.ts";
import type { ObjectProvider } from "../objects/provider.ts";
import type { TraceData } from "./trace-data.ts";
import type { Row } from "../sql/driver.ts";
import type { TraceStore } from "./records.ts";

export type LogLevel = "trace" | "debug" | "info" | "warn" | "error";

/** One delivery of a message to a subscription. */
export interface DeliveryToTrace {
  readonly service: string;
  readonly topic: string;
  readonly subscription: string;
  readonly messageId: string;
  readonly attempt: number;
  /** The publisher's W3C traceparent, when the message carried one: the delivery's trace links to it. */
  readonly traceparent?: string;
}

/** One run of a cron job. */
export interface CronRunToTrace {
  readonly job: string;
  /** The endpoint it calls; its service is the trace's. */
  readonly endpoint: { readonly service: string; readonly name: string } | null;
  readonly trigger: "schedule" | "manual";
}

/** One operation on a cache keyspace. */
export interface CacheOpToTrace {
  readonly cluster: string;
  readonly keyspace: string;
  readonly operation: string;
  readonly key: string;
  readonly write: boolean;
}

export type CacheOutcome = "ok" | "hit" | "miss" | "conflict";

/**
 * Each method runs `run` inside a span and returns what it returns, failures included.
 * Root spans (request, message, cron) start a trace of their own; every other span is
 * made only inside a trace whose root is still running, so work a request leaves
 * behind (a timer, a batch written later) is not recorded against it.
 */
export interface SpanRecorder {
  /** The ring the dashboard reads; null when spans are only exported. */
  readonly store: TraceStore | null;
  /** The messaging.system of publish and delivery spans. */
  readonly messagingSystem: string;
  /**
   * The root span of one HTTP request to `endpoint` (typed or raw), ended when its
   * response is done, with the status answered. The trace id is set as the response's
   * x-encore-trace-id header before `serve` runs.
   */
  request<T>(endpoint: EndpointMeta, req: IncomingMessage, res: ServerResponse, serve: () => T): T;
  /** Marks the request being served as failed, with `err`'s message (raw endpoints answer failures themselves). */
  requestFailed(err: unknown): void;
  handler<T>(endpoint: EndpointMeta, run: () => T): T;
  auth<T>(handler: { readonly service: string; readonly name: string }, run: () => Promise<T>): Promise<T>;
  call<T>(service: string, endpoint: string, run: () => Promise<T>): Promise<T>;
  sql(database: string, text: string, run: () => Promise<Row[]>): Promise<Row[]>;
  /** `run` gets the publish span's W3C traceparent to carry with the message; undefined outside a trace. */
  publish(topic: string, run: (traceparent: string | undefined) => Promise<string>): Promise<string>;
  message<T>(delivery: DeliveryToTrace, run: () => Promise<T>): Promise<T>;
  /** `run` gets the id of the run's trace. */
  cron<T>(run: CronRunToTrace, job: (traceId: string) => Promise<T>): Promise<T>;
  /** `provider` with a span around each storage operation. */
  objects(provider: ObjectProvider): ObjectProvider;
  /** A "cache" span around `run`, with the outcome `outcome` reads from what it returned ("error" when it threw). */
  cache<T>(op: CacheOpToTrace, run: () => Promise<T>, outcome: (value: T) => CacheOutcome): Promise<T>;
  /** Records a log line in the active trace: in the ring, and as a span event for exporters. */
  log(level: LogLevel, message: string, fields: Readonly<Record<string, unknown>>): void;
  /** What currentRequest().trace reports; undefined outside a trace. */
  traceData(): TraceData | undefined;
  /** Exports what is pending (waiting at most `timeoutMs`) and unregisters from OpenTelemetry's API. */
  shutdown(timeoutMs: number): Promise<void>;
}
