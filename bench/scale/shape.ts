// The data bench:scale seeds, as SQL the url database runs itself (no row crosses the
// wire): links spread over owners and a year, half of them never clicked and older than
// the cleanup's 90 days, the other half clicked along a Zipf curve. Made up, the same on
// every run, written in the shape the app leaves its rows (url migrations 1-21).

export interface ScaleShape {
  /** Links in all; the odd-numbered half is clicked, the even-numbered half is stale. */
  readonly links: number;
  /** Owners of the links: one real account holds `bigOwnerLinks`, the rest are spread over owners - 1 others. */
  readonly owners: number;
  readonly bigOwnerLinks: number;
  /** Clicks over the clicked half, about: the Zipf curve's sum, each link at least one. */
  readonly clicks: number;
}

/** Link n's code: s and n in 8 digits (a code has at least 3 characters). Clicked link r is link 2r-1, stale link r link 2r. */
export const codeOf = (n: number) => `s${String(n).padStart(8, "0")}`;

/** codeOf in SQL, of an integer expression. */
export const codeSql = (n: string) => `'s' || lpad((${n})::text, 8, '0')`;

/** The days a link's analytics keep hour rows for (analytics/click-reads/range.ts). */
export const hourlyDays = 35;

/**
 * SQL for the clicks of clicked link `r` (an integer expression): K/r, K such that the curve
 * sums to about `shape.clicks` (the harmonic number of the clicked links), at least 1.
 */
export function clicksSql(shape: ScaleShape, r: string): string {
  const clicked = Math.floor(shape.links / 2);
  const harmonic = Math.log(clicked) + 0.5772156649;
  const k = Math.max(1, Math.floor(shape.clicks / harmonic));
  return `greatest(1, floor(${k}::float8 / (${r})))::bigint`;
}

/**
 * SQL for the days with clicks of a link with `c` clicks: √c, at most a year. Its clicks are
 * spread evenly over its last that many days (today first); the days inside the hourly
 * retention are one hour row each, the older ones six day rows each (all and one value per
 * dimension), as the rollup leaves them.
 */
export const daysSql = (c: string) => `least(365, ceil(sqrt(${c})))::int`;
