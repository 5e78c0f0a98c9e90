import type { SpanRecord } from "../../../internal/tracing/records.ts";
import { duration } from "../format.ts";
import { spanSummary, spanTree } from "./tree.ts";

/** The trace's spans as bars on one time axis, indented under their parents, coloured by kind. */
export function Waterfall({
  spans,
  selected,
  onSelect,
}: {
  spans: readonly SpanRecord[];
  selected: string | null;
  onSelect(spanId: string): void;
}) {
  if (spans.length === 0) return <p class="muted">No spans were recorded.</p>;
  const placed = spanTree(spans);
  const start = Math.min(...spans.map((s) => s.startMs));
  const end = Math.max(...spans.map((s) => s.startMs + s.durationMs));
  const total = Math.max(end - start, 0.001);
  const pct = (ms: number) => `${((ms / total) * 100).toFixed(3)}%`;

  return (
    <div class="waterfall" role="list" aria-label="Spans" data-testid="waterfall">
      <div class="wf-axis" aria-hidden="true">
        <span />
        <div class="wf-ticks">
          {[0, 0.25, 0.5, 0.75, 1].map((f) => (
            <span key={f} style={{ left: `${f * 100}%` }}>
              {f === 0 ? "0" : duration(total * f)}
            </span>
          ))}
        </div>
      </div>
      {placed.map(({ span, depth }) => {
        const summary = spanSummary(span);
        return (
          <div
            key={span.spanId}
            role="listitem"
            class={`wf-row kind-${span.kind}${span.error ? " failed" : ""}${selected === span.spanId ? " selected" : ""}`}
            data-testid="span"
            data-kind={span.kind}
            data-span-id={span.spanId}
          >
            <button type="button" class="wf-label" style={{ paddingLeft: `${0.4 + depth * 1}rem` }} onClick={() => onSelect(span.spanId)} title={summary} aria-pressed={selected === span.spanId}>
              <span class="kind-tag">{span.kind}</span>
              <span class="wf-name mono">{summary}</span>
            </button>
            <div class="wf-track" onClick={() => onSelect(span.spanId)}>
              <div class="wf-bar" style={{ left: pct(span.startMs - start), width: `max(2px, ${pct(span.durationMs)})` }} />
              <span class="wf-dur mono" style={{ left: `calc(${pct(span.startMs - start + span.durationMs)} + 4px)` }}>
                {duration(span.durationMs)}
              </span>
            </div>
          </div>
        );
      })}
    </div>
  );
}
