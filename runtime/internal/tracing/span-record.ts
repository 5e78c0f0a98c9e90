import type { Attributes, HrTime } from "@opentelemetry/api";
import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { serviceAttr, spanKindAttr } from "./attributes.ts";
import type { AttributeValue, SpanKind, SpanRecord } from "./records.ts";

const kinds: ReadonlySet<string> = new Set<SpanKind>(["request", "auth", "handler", "call", "sql", "publish", "message", "cron", "objects", "cache"]);

/** The runtime's kind of a span; a span of the app's own (made with OpenTelemetry's API) counts as code it ran: "handler". */
export function spanKindOf(attributes: Attributes): SpanKind {
  const kind = attributes[spanKindAttr];
  return typeof kind === "string" && kinds.has(kind) ? (kind as SpanKind) : "handler";
}

/** A finished span as the dashboard reads it. */
export function toSpanRecord(span: ReadableSpan): SpanRecord {
  const { attributes, status } = span;
  const service = attributes[serviceAttr];
  return Object.freeze({
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId ?? null,
    kind: spanKindOf(attributes),
    name: span.name,
    service: typeof service === "string" ? service : null,
    startMs: hrMillis(span.startTime),
    durationMs: hrMillis(span.duration),
    // SpanStatusCode.ERROR, without loading the API for one constant.
    error: status.code === 2 ? status.message || "error" : null,
    attributes: Object.freeze(plainAttributes(attributes)),
  });
}

export function hrMillis([seconds, nanos]: HrTime): number {
  return seconds * 1000 + nanos / 1e6;
}

/** OpenTelemetry allows arrays as values; the records hold them as JSON text. */
function plainAttributes(attributes: Attributes): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const key of Object.keys(attributes)) {
    const value = attributes[key];
    if (value === undefined || value === null) continue;
    out[key] = typeof value === "object" ? JSON.stringify(value) : value;
  }
  return out;
}

/** What keeping a record costs, roughly, in bytes: UTF-16 text, numbers, and a fixed share per object and field. */
export function spanRecordBytes(record: SpanRecord): number {
  let bytes = 160 + 2 * (record.name.length + (record.service?.length ?? 0) + (record.error?.length ?? 0) + 32);
  for (const key of Object.keys(record.attributes)) {
    const value = record.attributes[key]!;
    bytes += 40 + 2 * key.length + (typeof value === "string" ? 2 * value.length : 8);
  }
  return bytes;
}
