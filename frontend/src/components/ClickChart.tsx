import type { analytics } from "../client.gen";
import type { Interval } from "../analytics/ranges";

const width = 600;
const height = 120;

/** A bucket's start as the reader says it, in the answer's time zone. */
export function bucketFormatter(interval: Interval, timeZone: string): (iso: string) => string {
  const format = new Intl.DateTimeFormat(
    undefined,
    interval === "day" ? { timeZone, dateStyle: "medium" } : { timeZone, month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" },
  );
  return (iso) => format.format(new Date(iso));
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * One bar per bucket, humans at the bottom and bots stacked on them. The SVG is one image
 * with a summary for screen readers; the table under it holds every number.
 */
export function ClickChart({ series, interval, timeZone }: { series: analytics.SeriesPoint[]; interval: Interval; timeZone: string }) {
  const label = bucketFormatter(interval, timeZone);
  const count = (p: analytics.SeriesPoint) => p.humans + p.bots;
  const max = Math.max(1, ...series.map(count));
  const humans = series.reduce((sum, p) => sum + p.humans, 0);
  const bots = series.reduce((sum, p) => sum + p.bots, 0);
  const busiest = series.reduce<analytics.SeriesPoint | undefined>((best, p) => (!best || count(p) > count(best) ? p : best), undefined);
  const first = series[0] ? label(series[0].start) : "";
  const last = series.at(-1) ? label(series.at(-1)!.start) : "";
  const slot = width / Math.max(1, series.length);
  // Thin bars (hours over 30 days) keep a quarter of their slot as the gap, wide ones 2 units;
  // a few buckets (a week, a new link's "all time") get bars of a bar's width, not blocks.
  const barWidth = Math.min(slot - Math.min(2, slot / 4), 40);
  const scale = (n: number) => (n / max) * (height - 4);
  const summary =
    humans + bots === 0
      ? `No clicks from ${first} to ${last}.`
      : `${plural(humans + bots, "click", "clicks")} (${humans} by humans, ${bots} by bots) from ${first} to ${last}; ` +
        `the most, ${count(busiest!)}, ${interval === "day" ? "on" : "in the hour from"} ${label(busiest!.start)}.`;
  return (
    <figure class="chart click-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary} preserveAspectRatio="none">
        <line class="axis" x1="0" y1={height - 0.5} x2={width} y2={height - 0.5} />
        {series.map((p, i) => {
          const x = i * slot + (slot - barWidth) / 2;
          const h = scale(p.humans);
          const b = scale(p.bots);
          return (
            <g key={p.start} class="bar">
              <title>{`${label(p.start)}: ${p.humans} humans, ${p.bots} bots`}</title>
              <rect class="humans" x={x} y={height - 1 - h} width={barWidth} height={h} />
              <rect class="bots" x={x} y={height - 1 - h - b} width={barWidth} height={b} />
            </g>
          );
        })}
      </svg>
      {/* The first and last bucket under the ends of the bars; the summary says the same for screen readers. */}
      <div class="chart-range" aria-hidden="true">
        <span>{first}</span>
        <span>{last}</span>
      </div>
      <figcaption>
        <span class="legend" aria-hidden="true">
          <span class="swatch humans" /> Humans <span class="swatch bots" /> Bots
        </span>
        <span aria-hidden="true">{summary}</span>
        <details>
          <summary>Every {interval} as a table</summary>
          <div class="table-scroll">
            <table>
              <thead>
                <tr>
                  <th scope="col">{interval === "day" ? "Day" : "Hour"} ({timeZone})</th>
                  <th scope="col" class="num">Humans</th>
                  <th scope="col" class="num">Bots</th>
                </tr>
              </thead>
              <tbody>
                {series.map((p) => (
                  <tr key={p.start}>
                    <td>{label(p.start)}</td>
                    <td class="num">{p.humans}</td>
                    <td class="num">{p.bots}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      </figcaption>
    </figure>
  );
}
