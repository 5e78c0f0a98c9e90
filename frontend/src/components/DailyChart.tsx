import type { analytics } from "../client.gen";

const width = 300;
const height = 80;

/**
 * One bar per day. The SVG is one image with a summary for screen readers; the table
 * under it holds every number, for anyone who wants them exactly.
 */
export function DailyChart({ days }: { days: analytics.DailyStat[] }) {
  const max = Math.max(1, ...days.map((d) => d.urlsCreated));
  const total = days.reduce((sum, d) => sum + d.urlsCreated, 0);
  const busiest = days.reduce<analytics.DailyStat | undefined>((best, d) => (!best || d.urlsCreated > best.urlsCreated ? d : best), undefined);
  const first = days[0]?.date ?? "";
  const last = days.at(-1)?.date ?? "";
  const barWidth = width / Math.max(1, days.length);
  const summary =
    total === 0
      ? `No links created from ${first} to ${last}.`
      : `${total} ${total === 1 ? "link" : "links"} created from ${first} to ${last}; the most, ${busiest!.urlsCreated}, on ${busiest!.date}.`;
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={summary} preserveAspectRatio="none">
        <line class="axis" x1="0" y1={height - 0.5} x2={width} y2={height - 0.5} />
        {days.map((d, i) => {
          const h = (d.urlsCreated / max) * (height - 4);
          return (
            <rect key={d.date} x={i * barWidth + 1} y={height - 1 - h} width={barWidth - 2} height={h}>
              <title>{`${d.date}: ${d.urlsCreated}`}</title>
            </rect>
          );
        })}
      </svg>
      {/* The first and last day under the ends of the bars; the summary says the same for screen readers. */}
      <div class="chart-range" aria-hidden="true">
        <span>{first}</span>
        <span>{last}</span>
      </div>
      <figcaption>
        <span aria-hidden="true">{summary}</span>
        <details>
          <summary>Every day as a table</summary>
          <table>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                <th scope="col">Links created</th>
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.date}>
                  <td>{d.date}</td>
                  <td>{d.urlsCreated}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
}
