import type { BreakdownDimension } from "../../visitors/dimensions";
import { boundedRead, type AnalyticsReader } from "../../limits/bounded-read";
import type { AnalyticsRange } from "./range";
import { urlDb } from "../url-db";
import { seriesOf, type SeriesRows } from "./series";
import type { Breakdown, ClickAnalytics } from "./shapes";

/** What one kind of click analytics reads: its rows over time, and its breakdowns' statement. */
export interface ClickSource {
  readonly series: SeriesRows;
  breakdowns(db: AnalyticsReader, range: AnalyticsRange): Promise<Map<BreakdownDimension, Breakdown>>;
}

/**
 * The click analytics of `source` over `range`: the series and every breakdown, in two
 * statements of one bounded read (limits/bounded-read.ts), the totals summed from the series.
 */
export async function readClickAnalytics(source: ClickSource, range: AnalyticsRange): Promise<ClickAnalytics> {
  const [series, breakdowns] = await boundedRead(urlDb, async (tx) => [await seriesOf(tx, source.series, range), await source.breakdowns(tx, range)] as const);
  const totals = { all: 0, humans: 0, bots: 0 };
  for (const p of series) {
    totals.humans += p.humans;
    totals.bots += p.bots;
  }
  totals.all = totals.humans + totals.bots;
  return {
    totals,
    series,
    referrers: breakdowns.get("referrer")!,
    countries: breakdowns.get("country")!,
    browsers: breakdowns.get("browser")!,
    os: breakdowns.get("os")!,
    devices: breakdowns.get("device")!,
    rules: breakdowns.get("rule")!,
  };
}
