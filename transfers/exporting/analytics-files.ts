import { stringify } from "csv-stringify/sync";
import type { analytics } from "~encore/clients";

/** What GET /:code/analytics and a tag's analytics answer, as far as a file needs it. */
type Analytics = Awaited<ReturnType<typeof analytics.linkAnalytics>>;

/** The dimensions, by their column in the file, and the answer's field. */
const dimensions = [
  ["referrer", "referrers"],
  ["country", "countries"],
  ["browser", "browsers"],
  ["os", "os"],
  ["device", "devices"],
] as const;

/** Per day: day (the start of the day in the range's time zone), humans, bots, clicks. */
export function perDayCsv(answer: Pick<Analytics, "series">): string {
  return stringify([["day", "humans", "bots", "clicks"], ...answer.series.map((p) => [p.start, p.humans, p.bots, p.humans + p.bots])]);
}

/** Per dimension: each top value of referrer, country, browser, os and device, then "(other)" for the rest. */
export function perDimensionCsv(answer: Pick<Analytics, "referrers" | "countries" | "browsers" | "os" | "devices">): string {
  const rows: (string | number)[][] = [["dimension", "value", "humans", "bots", "clicks"]];
  for (const [column, field] of dimensions) {
    const breakdown = answer[field];
    for (const v of breakdown.top) rows.push([column, v.value, v.humans, v.bots, v.humans + v.bots]);
    if (breakdown.other.humans + breakdown.other.bots > 0) {
      rows.push([column, "(other)", breakdown.other.humans, breakdown.other.bots, breakdown.other.humans + breakdown.other.bots]);
    }
  }
  return stringify(rows);
}
