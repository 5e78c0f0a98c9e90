import type { analytics } from "../client.gen";
import { countryFlag, valueLabel, type Dimension } from "../analytics/labels";

const headings: Record<Dimension, { title: string; column: string }> = {
  referrers: { title: "Referrers", column: "Referrer" },
  countries: { title: "Countries", column: "Country" },
  browsers: { title: "Browsers", column: "Browser" },
  os: { title: "Operating systems", column: "Operating system" },
  devices: { title: "Devices", column: "Device" },
};

/** One row of a breakdown: a value as people read it, its clicks by humans and by bots. */
export interface BreakdownRow {
  key: string;
  label: string;
  flag?: string;
  humans: number;
  bots: number;
  /** The clicks no listed value holds (shown apart, in italics). */
  other?: true;
}

/** A dimension's top values and, when there are more, the rest as "Other". */
export function DimensionBreakdown({ dimension, breakdown }: { dimension: Dimension; breakdown: analytics.Breakdown }) {
  const rows: BreakdownRow[] = breakdown.top.map((v) => ({
    key: v.value,
    label: valueLabel(dimension, v.value),
    flag: dimension === "countries" ? countryFlag(v.value) : "",
    humans: v.humans,
    bots: v.bots,
  }));
  const { humans, bots } = breakdown.other;
  if (humans + bots > 0) rows.push({ key: "", label: "Other", humans, bots, other: true });
  return <BreakdownTable id={dimension} {...headings[dimension]} rows={rows} />;
}

/** A breakdown's rows under its title: humans and bots apart, a bar under each; `wide`, across the whole grid, for long values. */
export function BreakdownTable({ id, title, column, rows, wide }: { id: string; title: string; column: string; rows: BreakdownRow[]; wide?: boolean }) {
  const max = Math.max(1, ...rows.map((r) => r.humans + r.bots));
  const share = (n: number) => (n / max) * 100;
  return (
    <section class={wide ? "breakdown wide" : "breakdown"} aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{title}</h3>
      {rows.length === 0 ? (
        <p class="meta">No clicks in this range.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{column}</th>
              <th scope="col" class="num">
                Humans
              </th>
              <th scope="col" class="num">
                Bots
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} class={r.other ? "other" : undefined}>
                <th scope="row">
                  {r.flag && <span aria-hidden="true">{r.flag} </span>}
                  {r.label}
                  {/* The numbers beside it say it all: the bar is for the eye only. */}
                  <svg class="share" viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true">
                    <rect class="humans" width={share(r.humans)} height="4" />
                    <rect class="bots" x={share(r.humans)} width={share(r.bots)} height="4" />
                  </svg>
                </th>
                <td class="num">{r.humans}</td>
                <td class="num">{r.bots}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
