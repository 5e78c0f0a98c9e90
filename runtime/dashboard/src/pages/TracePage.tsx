import { useState } from "preact/hooks";
import type { TraceDetail } from "../../../internal/dashboard/api.ts";
import type { LogRecord, SpanRecord } from "../../../internal/tracing/records.ts";
import { Badge, MethodBadge, StatusBadge } from "../components/Badge.tsx";
import { ErrorBox } from "../components/ErrorBox.tsx";
import { Loading, PageHeader } from "../components/PageHeader.tsx";
import { clock, dedent, duration } from "../format.ts";
import { href } from "../router.ts";
import { Waterfall } from "../traces/Waterfall.tsx";
import { useApi } from "../use-api.ts";

/** One trace: its spans as a waterfall, the chosen span's attributes, and its log lines. */
export function TracePage({ id }: { id: string }) {
  const { data, error } = useApi<TraceDetail>(`/api/traces/${encodeURIComponent(id)}`);
  const [selected, setSelected] = useState<string | null>(null);
  const span = data?.spans.find((s) => s.spanId === selected) ?? null;
  return (
    <>
      <PageHeader title={data ? `${data.service}.${data.name}` : "Trace"} sub={<a href={href.traces()}>← traces</a>} />
      <ErrorBox error={error} />
      {!data && !error && <Loading what="the trace" />}
      {data && (
        <>
          <div class="trace-head row">
            <Badge tone={data.kind === "api" ? "accent" : "muted"}>{data.kind}</Badge>
            {data.method && <MethodBadge method={data.method} />}
            {data.path && <code>{data.path}</code>}
            <StatusBadge status={data.status} error={data.error} />
            <span class="mono">{duration(data.durationMs)}</span>
            <span class="muted mono">{clock(data.startMs)}</span>
            <span class="muted small mono" title="Trace id">
              {data.traceId}
            </span>
          </div>
          {data.error && <div class="error">{data.error}</div>}
          <Waterfall spans={data.spans} selected={selected} onSelect={(s) => setSelected(s === selected ? null : s)} />
          {(data.droppedSpans > 0 || data.droppedLogs > 0) && (
            <p class="muted small">
              Left out past the trace's bound: {data.droppedSpans} spans, {data.droppedLogs} log lines.
            </p>
          )}
          {span && <SpanDetail span={span} traceStart={data.startMs} />}
          <Logs logs={span ? data.logs.filter((l) => l.spanId === span.spanId) : data.logs} traceStart={data.startMs} of={span ? "this span" : "this trace"} />
        </>
      )}
    </>
  );
}

function SpanDetail({ span, traceStart }: { span: SpanRecord; traceStart: number }) {
  return (
    <section class="card span-detail" aria-label="Span" data-testid="span-detail">
      <h2>
        <span class={`kind-tag kind-${span.kind}`}>{span.kind}</span> <span class="mono">{span.name}</span>
      </h2>
      {span.error && <div class="error">{span.error}</div>}
      <table class="grid compact">
        <tbody>
          <tr>
            <td class="muted">service</td>
            <td class="mono">{span.service ?? "—"}</td>
          </tr>
          <tr>
            <td class="muted">start</td>
            <td class="mono">+{duration(span.startMs - traceStart)}</td>
          </tr>
          <tr>
            <td class="muted">duration</td>
            <td class="mono">{duration(span.durationMs)}</td>
          </tr>
          {Object.entries(span.attributes).map(([key, value]) => (
            <tr key={key}>
              <td class="mono muted">{key}</td>
              <td class={`mono${key === "db.query.text" ? " sql" : ""}`}>{key === "db.query.text" ? dedent(String(value)) : String(value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Logs({ logs, traceStart, of }: { logs: readonly LogRecord[]; traceStart: number; of: string }) {
  return (
    <section aria-labelledby="logs-h">
      <h2 id="logs-h">Logs of {of}</h2>
      {logs.length === 0 ? (
        <p class="muted">No log lines.</p>
      ) : (
        <table class="grid logs" data-testid="logs">
          <tbody>
            {logs.map((log, i) => (
              <tr key={i} class={`level-${log.level}`}>
                <td class="mono muted">+{duration(log.timeMs - traceStart)}</td>
                <td>
                  <span class={`level ${log.level}`}>{log.level}</span>
                </td>
                <td>{log.message}</td>
                <td class="mono fields">
                  {Object.entries(log.fields).map(([k, v]) => (
                    <span key={k} class="field">
                      <span class="muted">{k}=</span>
                      {typeof v === "string" ? v : JSON.stringify(v)}
                    </span>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
