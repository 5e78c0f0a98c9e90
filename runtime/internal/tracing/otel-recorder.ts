import {
  context,
  createContextKey,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  type Tracer,
} from "@opentelemetry/api";
import { parseTraceParent } from "@opentelemetry/core";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { EndpointMeta } from "../meta/types.ts";
import type { ObjectProvider } from "../objects/provider.ts";
import type { TraceData } from "./trace-data.ts";
import type { Row } from "../sql/driver.ts";
import * as attr from "./attributes.ts";
import { capText, jsonSafe } from "./json-safe.ts";
import type { TracingOptions } from "./options.ts";
import { tracedObjects, type EndSpan } from "./objects-spans.ts";
import type { SpanKind as RecordKind } from "./records.ts";
import type { CacheOpToTrace, CacheOutcome, CronRunToTrace, DeliveryToTrace, LogLevel, SpanRecorder } from "./recorder.ts";
import { maxAttributeLength, setUpOpenTelemetry, type OpenTelemetry } from "./otel-setup.ts";
import type { TraceRing } from "./ring.ts";

/** The span currentRequest().trace reports: the HTTP request's root, a delivery's, a called endpoint's handler. */
const requestSpanKey = createContextKey("encore-selfhost request span");
/** The service whose code is running: the `encore.service` of the spans it makes. */
const serviceKey = createContextKey("encore-selfhost service");

export function createRecorder(options: TracingOptions): SpanRecorder {
  return new OtelRecorder(setUpOpenTelemetry(options), options.messagingSystem);
}

class OtelRecorder implements SpanRecorder {
  readonly store: TraceRing | null;
  readonly #tracer: Tracer;
  readonly #otel: OpenTelemetry;
  /** Traces whose root span is still running: only these take new spans. */
  readonly #open = new Set<string>();
  /** Spans already marked failed: a later, vaguer failure (the status answered) does not replace the cause. */
  readonly #failed = new WeakSet<Span>();
  readonly #objects = new WeakMap<ObjectProvider, ObjectProvider>();

  constructor(
    otel: OpenTelemetry,
    readonly messagingSystem: string,
  ) {
    this.#otel = otel;
    this.#tracer = otel.tracer;
    this.store = otel.ring;
  }

  request<T>(endpoint: EndpointMeta, req: IncomingMessage, res: ServerResponse, serve: () => T): T {
    const method = req.method ?? "GET";
    const url = req.url ?? "/";
    const queryAt = url.indexOf("?");
    const span = this.#tracer.startSpan(
      `${endpoint.service}.${endpoint.name}`,
      {
        kind: SpanKind.SERVER,
        root: true,
        attributes: {
          [attr.spanKindAttr]: "request" satisfies RecordKind,
          [attr.serviceAttr]: endpoint.service,
          [attr.endpointAttr]: endpoint.name,
          [attr.httpMethodAttr]: method,
          [attr.urlPathAttr]: queryAt === -1 ? url : url.slice(0, queryAt),
          [attr.httpRouteAttr]: endpoint.path,
        },
      },
      ROOT_CONTEXT,
    );
    const traceId = span.spanContext().traceId;
    this.#open.add(traceId);
    res.setHeader(attr.traceIdHeader, traceId);
    res.once("close", () => {
      span.setAttribute(attr.httpStatusAttr, res.statusCode);
      if (!res.writableFinished) this.#fail(span, new Error("the connection closed before the response was complete"));
      else if (res.statusCode >= 500 && !this.#failed.has(span)) span.setStatus({ code: SpanStatusCode.ERROR, message: `answered ${res.statusCode}` });
      span.end();
      this.#open.delete(traceId);
    });
    const ctx = trace.setSpan(ROOT_CONTEXT, span).setValue(requestSpanKey, span).setValue(serviceKey, endpoint.service);
    // A raw handler reads its body in events from the connection, outside this context.
    if (endpoint.kind === "raw" && method !== "GET" && method !== "HEAD") context.bind(ctx, req);
    try {
      const result = context.with(ctx, serve);
      if (!isPromise(result)) return result;
      return result.catch((err: unknown) => {
        this.#fail(span, err);
        throw err;
      }) as T;
    } catch (err) {
      this.#fail(span, err);
      throw err;
    }
  }

  requestFailed(err: unknown): void {
    const span = context.active().getValue(requestSpanKey) as Span | null | undefined;
    if (span) this.#fail(span, err);
  }

  handler<T>(endpoint: EndpointMeta, run: () => T): T {
    return this.#child(
      "handler",
      `${endpoint.service}.${endpoint.name}`,
      SpanKind.INTERNAL,
      { [attr.serviceAttr]: endpoint.service, [attr.endpointAttr]: endpoint.name },
      run,
      (ctx, span) => {
        const inService = ctx.setValue(serviceKey, endpoint.service);
        // Called from another service: this handler's span is the request currentRequest() describes.
        return (ctx.getValue(requestSpanKey) ?? null) === null ? inService.setValue(requestSpanKey, span) : inService;
      },
    );
  }

  auth<T>(handler: { readonly service: string; readonly name: string }, run: () => Promise<T>): Promise<T> {
    return this.#child(
      "auth",
      `${handler.service}.${handler.name}`,
      SpanKind.INTERNAL,
      { [attr.serviceAttr]: handler.service, [attr.endpointAttr]: handler.name },
      run,
      (ctx) => ctx.setValue(serviceKey, handler.service),
    );
  }

  call<T>(service: string, endpoint: string, run: () => Promise<T>): Promise<T> {
    return this.#child(
      "call",
      `${service}.${endpoint}`,
      SpanKind.INTERNAL,
      { [attr.callServiceAttr]: service, [attr.callEndpointAttr]: endpoint },
      run,
      (ctx) => ctx.setValue(requestSpanKey, null),
    );
  }

  sql(database: string, text: string, run: () => Promise<Row[]>): Promise<Row[]> {
    const operation = /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase();
    const attributes: Attributes = {
      [attr.dbSystemAttr]: "postgresql",
      [attr.dbNamespaceAttr]: database,
      [attr.dbQueryTextAttr]: text,
    };
    if (operation) attributes[attr.dbOperationAttr] = operation;
    return this.#child("sql", sqlSpanName(text), SpanKind.CLIENT, attributes, run, undefined, (span, rows) =>
      span.setAttribute(attr.dbReturnedRowsAttr, rows.length),
    );
  }

  publish(topic: string, run: (traceparent: string | undefined) => Promise<string>): Promise<string> {
    let traceparent: string | undefined;
    return this.#child(
      "publish",
      `publish ${topic}`,
      SpanKind.PRODUCER,
      {
        [attr.messagingSystemAttr]: this.messagingSystem,
        [attr.messagingDestinationAttr]: topic,
        [attr.messagingOperationTypeAttr]: "send",
      },
      () => run(traceparent),
      (ctx, span) => {
        traceparent = traceparentOf(span.spanContext());
        return ctx;
      },
      (span, messageId) => span.setAttribute(attr.messagingMessageIdAttr, messageId),
    );
  }

  message<T>(d: DeliveryToTrace, run: () => Promise<T>): Promise<T> {
    const publisher = d.traceparent === undefined ? null : parseTraceParent(d.traceparent);
    const links: Link[] = publisher ? [{ context: publisher }] : [];
    return this.#root(
      "message",
      `${d.topic}/${d.subscription}`,
      SpanKind.CONSUMER,
      d.service,
      {
        [attr.messagingSystemAttr]: this.messagingSystem,
        [attr.messagingDestinationAttr]: d.topic,
        [attr.messagingSubscriptionAttr]: d.subscription,
        [attr.messagingConsumerGroupAttr]: d.subscription,
        [attr.messagingOperationTypeAttr]: "process",
        [attr.messagingMessageIdAttr]: d.messageId,
        [attr.deliveryAttemptAttr]: d.attempt,
      },
      links,
      true,
      run,
    );
  }

  cron<T>(r: CronRunToTrace, job: (traceId: string) => Promise<T>): Promise<T> {
    const attributes: Attributes = { [attr.cronJobAttr]: r.job, [attr.cronTriggerAttr]: r.trigger };
    if (r.endpoint) attributes[attr.endpointAttr] = r.endpoint.name;
    return this.#root("cron", r.job, SpanKind.INTERNAL, r.endpoint?.service ?? "", attributes, [], false, job);
  }

  objects(provider: ObjectProvider): ObjectProvider {
    let traced = this.#objects.get(provider);
    if (!traced) {
      traced = tracedObjects(provider, (operation, bucket, key) => this.#beginObjects(operation, bucket, key));
      this.#objects.set(provider, traced);
    }
    return traced;
  }

  cache<T>(op: CacheOpToTrace, run: () => Promise<T>, outcome: (value: T) => CacheOutcome): Promise<T> {
    const attributes: Attributes = {
      [attr.cacheClusterAttr]: op.cluster,
      [attr.cacheKeyspaceAttr]: op.keyspace,
      [attr.cacheOperationAttr]: op.operation,
      [attr.cacheKeyAttr]: capText(op.key, maxAttributeLength),
      [attr.cacheWriteAttr]: op.write,
    };
    const failed = (err: unknown): never => {
      trace.getActiveSpan()?.setAttribute(attr.cacheResultAttr, "error");
      throw err;
    };
    return this.#child("cache", `${op.operation} ${capText(op.key, 200)}`, SpanKind.CLIENT, attributes, () => run().catch(failed), undefined, (span, value) =>
      span.setAttribute(attr.cacheResultAttr, outcome(value)),
    );
  }

  log(level: LogLevel, message: string, fields: Readonly<Record<string, unknown>>): void {
    const span = this.#activeSpan(context.active());
    if (span === null) return;
    const { traceId, spanId } = span.spanContext();
    const text = capText(message, maxAttributeLength);
    const safe = jsonSafe(fields);
    // An ended span (a line written after its handler returned) takes no events; the ring still takes the line.
    if (span.isRecording()) span.addEvent("log", { "log.severity": level, "log.message": text, "log.fields": JSON.stringify(safe) });
    this.store?.addLog(traceId, { spanId, timeMs: Date.now(), level, message: text, fields: safe });
  }

  traceData(): TraceData | undefined {
    const ctx = context.active();
    const span = (ctx.getValue(requestSpanKey) as Span | null | undefined) ?? trace.getSpan(ctx);
    if (!span) return undefined;
    const { traceId, spanId } = span.spanContext();
    const parentSpanId = (span as Partial<{ parentSpanContext: SpanContext }>).parentSpanContext?.spanId;
    return parentSpanId === undefined ? { traceId, spanId } : { traceId, spanId, parentSpanId };
  }

  shutdown(timeoutMs: number): Promise<void> {
    return this.#otel.shutdown(timeoutMs);
  }

  /** The active span, if its trace's root is still running. */
  #activeSpan(ctx: Context): Span | null {
    const span = trace.getSpan(ctx);
    return span !== undefined && this.#open.has(span.spanContext().traceId) ? span : null;
  }

  /**
   * Runs `run` in a span under the active one, or untraced outside a running trace.
   * `enter` adds to the context `run` sees; `finish` records what `run` returned.
   */
  #child<T>(
    kind: RecordKind,
    name: string,
    otelKind: SpanKind,
    attributes: Attributes,
    run: () => T,
    enter?: (ctx: Context, span: Span) => Context,
    finish?: (span: Span, value: Awaited<T>) => void,
  ): T {
    const parent = context.active();
    if (this.#activeSpan(parent) === null) return run();
    attributes[attr.spanKindAttr] = kind;
    const service = parent.getValue(serviceKey);
    if (attributes[attr.serviceAttr] === undefined && typeof service === "string") attributes[attr.serviceAttr] = service;
    const span = this.#tracer.startSpan(name, { kind: otelKind, attributes }, parent);
    let ctx = trace.setSpan(parent, span);
    if (enter) ctx = enter(ctx, span);
    return this.#settle(span, () => context.with(ctx, run), finish);
  }

  /** Runs `run` as the root span of a trace of its own, whatever is active. */
  #root<T>(
    kind: RecordKind,
    name: string,
    otelKind: SpanKind,
    service: string,
    attributes: Attributes,
    links: Link[],
    describesRequest: boolean,
    run: (traceId: string) => Promise<T>,
  ): Promise<T> {
    attributes[attr.spanKindAttr] = kind;
    attributes[attr.serviceAttr] = service;
    const span = this.#tracer.startSpan(name, { kind: otelKind, attributes, links, root: true }, ROOT_CONTEXT);
    const traceId = span.spanContext().traceId;
    this.#open.add(traceId);
    const ctx = trace
      .setSpan(ROOT_CONTEXT, span)
      .setValue(serviceKey, service)
      .setValue(requestSpanKey, describesRequest ? span : null);
    return this.#settle(span, () => context.with(ctx, () => run(traceId)), undefined, () => this.#open.delete(traceId));
  }

  #beginObjects(operation: string, bucket: string, key: string | null): EndSpan | null {
    const parent = context.active();
    if (this.#activeSpan(parent) === null) return null;
    const attributes: Attributes = { [attr.spanKindAttr]: "objects" satisfies RecordKind, [attr.bucketAttr]: bucket };
    if (key !== null) attributes[attr.objectKeyAttr] = key;
    const service = parent.getValue(serviceKey);
    if (typeof service === "string") attributes[attr.serviceAttr] = service;
    const name = key === null ? `${operation} ${bucket}` : `${operation} ${bucket}/${key}`;
    const span = this.#tracer.startSpan(name, { kind: SpanKind.CLIENT, attributes }, parent);
    return (err, more) => {
      if (more) span.setAttributes(more);
      if (err !== null && err !== undefined) this.#fail(span, err);
      span.end();
    };
  }

  /** Ends `span` when `run` is done, synchronously or not; `after` runs once it has ended. */
  #settle<T>(span: Span, run: () => T, finish?: (span: Span, value: Awaited<T>) => void, after?: () => void): T {
    let result: T;
    try {
      result = run();
    } catch (err) {
      this.#fail(span, err);
      span.end();
      after?.();
      throw err;
    }
    if (!isPromise(result)) {
      finish?.(span, result as Awaited<T>);
      span.end();
      after?.();
      return result;
    }
    return (result as Promise<Awaited<T>>).then(
      (value) => {
        finish?.(span, value);
        span.end();
        after?.();
        return value;
      },
      (err: unknown) => {
        this.#fail(span, err);
        span.end();
        after?.();
        throw err;
      },
    ) as T;
  }

  #fail(span: Span, err: unknown): void {
    if (this.#failed.has(span)) return;
    this.#failed.add(span);
    const message = err instanceof Error ? err.message : String(err);
    const code = (err as { code?: unknown } | null)?.code;
    span.setStatus({ code: SpanStatusCode.ERROR, message });
    span.setAttribute(attr.errorTypeAttr, typeof code === "string" ? code : err instanceof Error ? err.name : "error");
    if (err instanceof Error) span.recordException(err);
  }
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** A statement's first words, whitespace collapsed: short enough to read as a name. */
function sqlSpanName(text: string): string {
  return capText(text.slice(0, 200).replace(/\s+/g, " ").trim(), 80);
}

/** W3C traceparent of a span: version 00, trace id, span id, flags. */
function traceparentOf({ traceId, spanId, traceFlags }: SpanContext): string {
  return `00-${traceId}-${spanId}-${traceFlags.toString(16).padStart(2, "0")}`;
}
