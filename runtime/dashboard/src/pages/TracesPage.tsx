import { useEffect, useState } from "preact/hooks";
import type { Catalog, TraceList, TraceSummary } from "../../../internal/dashboard/api.ts";
import { Badge, MethodBadge, StatusBadge } from "../components/Badge.tsx";
import { ErrorBox } from "../components/ErrorBox.tsx";
import { Empty, Loading, PageHeader } from "../components/PageHeader.tsx";
import { clock, duration } from "../format.ts";
import { onTrace, useLive } from "../live.ts";
import { href } from "../router.ts";
import { filtersFrom, matches, tracesPath, type Filters } from "../traces/filter.ts";
import { useApi } from "../use-api.ts";

const shown = 100;

/** Recent traces, newest first; traces that finish while the page is open appear at the top. */
export function TracesPage({ initial }: { initial: URLSearchParams }) {
  const [filters, setFilters] = useState<Filters>(() => filtersFrom(initial));
  const { data, error, reload } = useApi<TraceList>(tracesPath(filters));
  const catalog = useApi<Catalog>("/api/catalog");
  const live = useLive();
  const [arrived, setArrived] = useState<TraceSummary[]>([]);

  // Live traces go on top of the last answer; a new answer already holds them.
  useEffect(() => setArrived([]), [data]);
  useEffect(() => onTrace((trace) => matches(trace, filters) && setArrived((list) => [trace, ...list])), [filters]);

  const seen = new Set<string>();
  const traces = [...arrived, ...(data?.traces ?? [])].filter((t) => !seen.has(t.traceId) && seen.add(t.traceId)).slice(0, shown);
  const fresh = new Set(arrived.map((t) => t.traceId));
  const set = (key: keyof Filters) => (e: { currentTarget: HTMLInputElement }) => setFilters({ ...filters, [key]: e.currentTarget.value });

  return (
    <>
      <PageHeader title="Traces" sub={live.state === "connected" ? "Live: new traces appear at the top." : "Not connected: new traces appear once the dashboard reconnects."}>
        <button type="button" class="secondary" onClick={reload}>
          Refresh
        </button>
      </PageHeader>
      <form class="filters row" onSubmit={(e) => e.preventDefault()} aria-label="Filters">
        <label>
          Service
          <input list="trace-services" value={filters.service} onChange={set("service")} placeholder="any" />
        </label>
        <datalist id="trace-services">
          {catalog.data?.services.map((s) => (
            <option key={s.name} value={s.name} />
          ))}
        </datalist>
        <label>
          Endpoint, subscription or job
          <input value={filters.name} onChange={set("name")} placeholder="any" />
        </label>
        <label>
          Status
          <input list="trace-statuses" value={filters.status} onChange={set("status")} placeholder="ok, error, 404…" size={14} />
        </label>
        <datalist id="trace-statuses">
          {["ok", "error", "200", "400", "401", "404", "500"].map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
        <label>
          Min duration (ms)
          <input type="number" min={0} value={filters.minMs} onChange={set("minMs")} size={6} />
        </label>
      </form>
      <ErrorBox error={error} />
      {!data && !error && <Loading what="traces" />}
      {data && traces.length === 0 && <Empty>No traces yet{Object.values(filters).some(Boolean) ? " that match these filters" : ""}: call an endpoint (the explorer on an endpoint's page does), publish a message or run a cron job.</Empty>}
      {traces.length > 0 && (
        <table class="grid traces" data-testid="traces">
          <thead>
            <tr>
              <th>Time</th>
              <th>Kind</th>
              <th>Service.name</th>
              <th>Request</th>
              <th>Status</th>
              <th class="num">Duration</th>
              <th class="num">Spans</th>
            </tr>
          </thead>
          <tbody>
            {traces.map((t) => (
              <TraceRow key={t.traceId} trace={t} fresh={fresh.has(t.traceId)} />
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

function TraceRow({ trace, fresh }: { trace: TraceSummary; fresh: boolean }) {
  return (
    <tr class={fresh ? "fresh" : undefined} data-testid="trace-row" data-trace-id={trace.traceId}>
      <td class="mono">{clock(trace.startMs)}</td>
      <td>
        <Badge tone={trace.kind === "api" ? "accent" : "muted"}>{trace.kind}</Badge>
      </td>
      <td class="mono">
        <a href={href.trace(trace.traceId)}>
          {trace.service}.{trace.name}
        </a>
      </td>
      <td class="mono">
        {trace.method && <MethodBadge method={trace.method} />} {trace.path}
      </td>
      <td>
        <StatusBadge status={trace.status} error={trace.error} />
      </td>
      <td class="num mono">{duration(trace.durationMs)}</td>
      <td class="num mono">{trace.spanCount}</td>
    </tr>
  );
}
