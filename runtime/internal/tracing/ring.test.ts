// The ring on its own, fed by OpenTelemetry's real SDK: spans made with a tracer of a
// provider whose only processor is the ring, with the attributes the runtime writes.
import { ROOT_CONTEXT, trace, type Attributes, type Span } from "@opentelemetry/api";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import { describe, expect, test } from "vitest";
import { cronJobAttr, endpointAttr, httpMethodAttr, httpStatusAttr, serviceAttr, spanKindAttr, urlPathAttr } from "./attributes.ts";
import type { TraceSummary } from "./records.ts";
import { TraceRing, type RingLimits } from "./ring.ts";

function ringWith(limits: Partial<RingLimits> = {}) {
  const ring = new TraceRing(limits);
  const tracer = new BasicTracerProvider({ spanProcessors: [ring] }).getTracer("test");
  let clock = 1_700_000_000_000;

  /** A span from `at` (ms after the previous trace began) lasting `ms`, under `parent` or as a root. */
  const span = (name: string, attributes: Attributes, parent: Span | null, at: number, ms: number) => {
    const ctx = parent ? trace.setSpan(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
    const s = tracer.startSpan(name, { attributes, startTime: clock + at, root: parent === null }, ctx);
    return { span: s, end: () => s.end(clock + at + ms) };
  };

  /** An API call: its root, then `children` sql spans inside it. */
  const api = (o: { service?: string; endpoint?: string; status?: number; error?: string; ms?: number; children?: number; attrs?: Attributes }) => {
    clock += 1000;
    const root = span(
      `${o.service ?? "svc"}.${o.endpoint ?? "get"}`,
      {
        [spanKindAttr]: "request",
        [serviceAttr]: o.service ?? "svc",
        [endpointAttr]: o.endpoint ?? "get",
        [httpMethodAttr]: "GET",
        [urlPathAttr]: "/x",
        ...o.attrs,
      },
      null,
      0,
      o.ms ?? 10,
    );
    for (let i = 0; i < (o.children ?? 0); i++) span(`SELECT ${i}`, { [spanKindAttr]: "sql", "db.query.text": `SELECT ${i}` }, root.span, 1, 1).end();
    root.span.setAttribute(httpStatusAttr, o.status ?? 200);
    if (o.error) root.span.setStatus({ code: 2, message: o.error });
    root.end();
    return root.span.spanContext().traceId;
  };
  return { ring, tracer, span, api };
}

describe("the trace ring", () => {
  test("keeps the last maxTraces traces, newest first, and counts the ones it evicted", () => {
    const { ring, api } = ringWith({ maxTraces: 3 });
    const ids = [1, 2, 3, 4, 5].map((n) => api({ endpoint: `e${n}` }));
    expect(ring.list().map((t) => t.name)).toEqual(["e5", "e4", "e3"]);
    expect(ring.get(ids[0]!)).toBeUndefined();
    expect(ring.get(ids[4]!)?.name).toBe("e5");
    expect(ring.stats()).toMatchObject({ traces: 3, evictedTraces: 2 });
  });

  test("stays within its byte budget by evicting the oldest traces", () => {
    const { ring, api } = ringWith({ maxBytes: 60_000 });
    const big = "x".repeat(4000); // ~8 KB a span, UTF-16
    for (let i = 0; i < 20; i++) api({ endpoint: `e${i}`, children: 2, attrs: { note: big } });
    const { bytes, traces, evictedTraces } = ring.stats();
    expect(bytes).toBeLessThanOrEqual(60_000);
    expect(traces).toBeGreaterThan(0);
    expect(traces + evictedTraces).toBe(20);
    expect(ring.list()[0]!.name).toBe("e19");
  });

  test("caps spans and log lines per trace, keeps the root, and counts what it dropped", () => {
    const { ring, api, span } = ringWith({ maxSpansPerTrace: 3, maxLogsPerTrace: 2 });
    const root = span("svc.get", { [spanKindAttr]: "request", [serviceAttr]: "svc", [endpointAttr]: "get" }, null, 0, 50);
    const traceId = root.span.spanContext().traceId;
    for (let i = 0; i < 5; i++) span(`q${i}`, { [spanKindAttr]: "sql" }, root.span, i, 1).end();
    for (let i = 0; i < 4; i++) ring.addLog(traceId, { spanId: null, timeMs: 0, level: "info", message: `line ${i}`, fields: { i } });
    root.end();
    const detail = ring.get(traceId)!;
    expect(detail.spans.map((s) => s.name)).toEqual(["svc.get", "q0", "q1", "q2"]);
    expect(detail.droppedSpans).toBe(2);
    expect(detail.logs.map((l) => l.message)).toEqual(["line 0", "line 1"]);
    expect(detail.droppedLogs).toBe(2);
    expect(detail).toMatchObject({ spanCount: 4, logCount: 2 });
    api({});
    expect(ring.stats()).toMatchObject({ droppedSpans: 2, droppedLogs: 2 });
  });

  test("filters by service, name, status and duration", () => {
    const { ring, api } = ringWith();
    api({ service: "url", endpoint: "get", status: 200, ms: 5 });
    api({ service: "url", endpoint: "get", status: 404, error: "url not found", ms: 50 });
    api({ service: "url", endpoint: "shorten", status: 500, ms: 200 });
    api({ service: "users", endpoint: "get", status: 200, ms: 80 });
    const names = (traces: TraceSummary[]) => traces.map((t) => `${t.service}.${t.name}:${t.status}`);
    expect(names(ring.list({ service: "url" }))).toEqual(["url.shorten:500", "url.get:404", "url.get:200"]);
    expect(names(ring.list({ name: "get" }))).toEqual(["users.get:200", "url.get:404", "url.get:200"]);
    expect(names(ring.list({ status: "ok" }))).toEqual(["users.get:200", "url.get:200"]);
    expect(names(ring.list({ status: "error" }))).toEqual(["url.shorten:500", "url.get:404"]);
    expect(names(ring.list({ status: "404" }))).toEqual(["url.get:404"]);
    expect(names(ring.list({ minDurationMs: 60 }))).toEqual(["users.get:200", "url.shorten:500"]);
    expect(names(ring.list({ limit: 1 }))).toEqual(["users.get:200"]);
    expect(ring.list({ status: "404" })[0]).toMatchObject({ kind: "api", method: "GET", path: "/x", error: "url not found", durationMs: 50 });
  });

  test("announces each trace once, when its root ends; spans ending later still join it", () => {
    const { ring, span } = ringWith();
    const heard: TraceSummary[] = [];
    const stop = ring.onTrace((t) => heard.push(t));
    const root = span("nightly", { [spanKindAttr]: "cron", [serviceAttr]: "jobs", [cronJobAttr]: "nightly" }, null, 0, 20);
    const late = span("publish done", { [spanKindAttr]: "publish" }, root.span, 5, 100);
    span("SELECT 1", { [spanKindAttr]: "sql" }, root.span, 1, 2).end();
    expect(heard).toEqual([]);
    root.end();
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatchObject({ kind: "cron", name: "nightly", service: "jobs", spanCount: 2 });
    late.end();
    expect(heard).toHaveLength(1);
    expect(ring.get(heard[0]!.traceId)!.spans.map((s) => s.name)).toEqual(["nightly", "SELECT 1", "publish done"]);
    stop();
    span("again", { [spanKindAttr]: "cron", [cronJobAttr]: "again" }, null, 0, 1).end();
    expect(heard).toHaveLength(1);
    expect(ring.list()).toHaveLength(2);
  });

  test("ignores traces that do not start at a root of the runtime's", () => {
    const { ring, span } = ringWith();
    const foreign = span("app's own root", { note: "made by the app" }, null, 0, 5);
    span("SELECT 1", { [spanKindAttr]: "sql" }, foreign.span, 1, 1).end();
    foreign.end();
    expect(ring.list()).toEqual([]);
    expect(ring.stats()).toMatchObject({ traces: 0, openTraces: 0, bytes: 0 });
  });
});
