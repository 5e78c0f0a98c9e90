// The trace pages' own logic: the waterfall's order and depth, a span's one-line summary,
// and which live traces belong in a filtered list.
import { describe, expect, test } from "vitest";
import type { SpanRecord, TraceSummary } from "../../internal/tracing/records.ts";
import { filtersFrom, matches, tracesPath } from "../src/traces/filter.ts";
import { spanSummary, spanTree } from "../src/traces/tree.ts";

const span = (spanId: string, parentSpanId: string | null, startMs: number, extra: Partial<SpanRecord> = {}): SpanRecord => ({
  spanId,
  parentSpanId,
  kind: "handler",
  name: spanId,
  service: "url",
  startMs,
  durationMs: 1,
  error: null,
  attributes: {},
  ...extra,
});

describe("spanTree", () => {
  test("each parent is followed by its children in start order, with their depth", () => {
    const placed = spanTree([span("c2", "b", 5), span("a", null, 0), span("c1", "b", 3), span("b", "a", 1), span("d", "a", 9)]);
    expect(placed.map((p) => `${p.span.spanId}@${p.depth}`)).toEqual(["a@0", "b@1", "c1@2", "c2@2", "d@1"]);
  });

  test("a span whose parent was dropped is shown as a root rather than lost", () => {
    expect(spanTree([span("a", null, 0), span("orphan", "gone", 2)]).map((p) => p.depth)).toEqual([0, 0]);
  });
});

test("spanSummary shows the SQL text, the topic and the call's target", () => {
  expect(spanSummary(span("s", null, 0, { kind: "sql", name: "INSERT", attributes: { "db.query.text": "INSERT INTO url VALUES ($1)" } }))).toBe("INSERT INTO url VALUES ($1)");
  expect(spanSummary(span("p", null, 0, { kind: "publish", name: "publish url-events", attributes: { "messaging.destination.name": "url-events" } }))).toBe("publish → url-events");
  expect(spanSummary(span("c", null, 0, { kind: "call", name: "users.get" }))).toBe("call → users.get");
});

describe("trace filters", () => {
  const trace: TraceSummary = {
    traceId: "t",
    kind: "api",
    service: "url",
    name: "shorten",
    method: "POST",
    path: "/shorten",
    status: 404,
    error: "not_found: no such code",
    startMs: 0,
    durationMs: 12,
    spanCount: 3,
    logCount: 0,
  };
  const f = (q: string) => filtersFrom(new URLSearchParams(q));

  test("a live trace matches as the server's filter would", () => {
    expect(matches(trace, f(""))).toBe(true);
    expect(matches(trace, f("service=url&name=shorten&status=404&minMs=10"))).toBe(true);
    expect(matches(trace, f("service=urlb"))).toBe(false);
    expect(matches(trace, f("status=200"))).toBe(false);
    expect(matches(trace, f("minMs=20"))).toBe(false);
  });

  test("a 4xx answer counts as an error, as the trace's own error says", () => {
    expect(matches(trace, f("status=error"))).toBe(true);
    expect(matches(trace, f("status=ok"))).toBe(false);
    expect(matches({ ...trace, status: 200, error: null }, f("status=ok"))).toBe(true);
  });

  test("only the filters that are set go in the query string", () => {
    expect(tracesPath(f("service=url&name=&minMs=5"))).toBe("/api/traces?service=url&minMs=5");
    expect(tracesPath(f(""))).toBe("/api/traces");
  });
});
