import type { SpanRecord } from "../../../internal/tracing/records.ts";

export interface PlacedSpan {
  readonly span: SpanRecord;
  readonly depth: number;
}

/** Spans in tree order (each parent followed by its children, by start), with their depth. A span whose parent is missing counts as a root. */
export function spanTree(spans: readonly SpanRecord[]): PlacedSpan[] {
  const ids = new Set(spans.map((s) => s.spanId));
  const children = new Map<string | null, SpanRecord[]>();
  for (const span of spans) {
    const parent = span.parentSpanId !== null && ids.has(span.parentSpanId) ? span.parentSpanId : null;
    children.set(parent, [...(children.get(parent) ?? []), span]);
  }
  const placed: PlacedSpan[] = [];
  const visit = (parent: string | null, depth: number) => {
    for (const span of [...(children.get(parent) ?? [])].sort((a, b) => a.startMs - b.startMs)) {
      placed.push({ span, depth });
      visit(span.spanId, depth + 1);
    }
  };
  visit(null, 0);
  return placed;
}

/** What a span did, in a line: the SQL text, the topic published to, the service called. */
export function spanSummary(span: SpanRecord): string {
  const a = span.attributes;
  const text = (key: string) => (typeof a[key] === "string" ? (a[key] as string) : null);
  switch (span.kind) {
    case "sql":
      return text("db.query.text") ?? span.name;
    case "publish":
      return `publish → ${text("messaging.destination.name") ?? span.name.replace(/^publish /, "")}`;
    case "message":
      return `${span.name}${text("messaging.destination.name") ? ` ← ${text("messaging.destination.name")}` : ""}`;
    case "call":
      return `call → ${span.name}`;
    default:
      return span.name;
  }
}
