import { breakdownDimensions, type BreakdownDimension } from "../../visitors/dimensions";
import type { AnalyticsReader } from "../../limits/bounded-read";
import type { AnalyticsRange } from "../click-reads/range";
import { readClickAnalytics } from "../click-reads/read";
import { daysInRange, hoursInRange, rangeParams, type SeriesRows } from "../click-reads/series";
import { topRules, topValues, type Breakdown, type ClickAnalytics } from "../click-reads/shapes";

/**
 * The analytics of the links `codes` over `range`: the series and every breakdown, in
 * two statements of one bounded read (click-reads/read.ts). Hourly rows count when their
 * hour starts inside the range (from rounded down to its hour); daily rows, older than the
 * hourly retention, when their UTC day does (from rounded down to its UTC day), and in a
 * day series they fall in the local day holding their UTC noon (click-reads/series.ts).
 */
export async function clickAnalytics(codes: readonly string[], range: AnalyticsRange): Promise<ClickAnalytics> {
  return readClickAnalytics({ series: seriesRows([...codes]), breakdowns: (db, r) => breakdownsOf(db, [...codes], r) }, range);
}

function seriesRows(codes: string[]): SeriesRows {
  return {
    key: codes,
    hours: `
      SELECT hour, sum(clicks) FILTER (WHERE NOT bot) AS humans, sum(clicks) FILTER (WHERE bot) AS bots
      FROM link_clicks_hourly
      WHERE code = ANY($1::text[]) AND ${hoursInRange}
      GROUP BY hour`,
    days: `
      SELECT day, humans, bots FROM link_clicks_daily
      WHERE code = ANY($1::text[]) AND dimension = 'all' AND ${daysInRange}`,
  };
}

async function breakdownsOf(db: AnalyticsReader, codes: string[], range: AnalyticsRange): Promise<Map<BreakdownDimension, Breakdown>> {
  const rows = await db.rawQueryAll<{ dimension: BreakdownDimension; value: string | null; humans: number; bots: number }>(
    `WITH hourly AS (
       -- The empty grouping set is the range's clicks, as rule '' (none) until rule_clicks takes the rules' off.
       SELECT CASE WHEN GROUPING(referrer) = 0 THEN 'referrer' WHEN GROUPING(country) = 0 THEN 'country'
                   WHEN GROUPING(browser) = 0 THEN 'browser' WHEN GROUPING(os) = 0 THEN 'os'
                   WHEN GROUPING(device) = 0 THEN 'device' ELSE 'rule' END AS dimension,
              COALESCE(referrer, country, browser, os, device, '') AS value,
              sum(clicks) FILTER (WHERE NOT bot) AS humans, sum(clicks) FILTER (WHERE bot) AS bots
       FROM link_clicks_hourly
       WHERE code = ANY($1::text[]) AND ${hoursInRange}
       GROUP BY GROUPING SETS ((referrer), (country), (browser), (os), (device), ())
     ), rule_clicks AS (
       SELECT rule, sum(clicks) FILTER (WHERE NOT bot) AS humans, sum(clicks) FILTER (WHERE bot) AS bots
       FROM link_clicks_rules_hourly
       WHERE code = ANY($1::text[]) AND ${hoursInRange}
       GROUP BY rule
     ), rules_hourly AS (
       SELECT 'rule' AS dimension, rule AS value, humans, bots FROM rule_clicks
       UNION ALL
       SELECT 'rule', '', -sum(humans), -sum(bots) FROM rule_clicks
     ), daily AS (
       SELECT dimension, value, sum(humans) AS humans, sum(bots) AS bots
       FROM link_clicks_daily
       WHERE code = ANY($1::text[]) AND dimension <> 'all' AND ${daysInRange}
       GROUP BY dimension, value
     ), summed AS (
       SELECT dimension, value, sum(COALESCE(humans, 0)) AS humans, sum(COALESCE(bots, 0)) AS bots
       FROM (SELECT * FROM hourly UNION ALL SELECT * FROM rules_hourly UNION ALL SELECT * FROM daily) AS both_kinds
       GROUP BY dimension, value
     ), ranked AS (
       -- Value '' is what a day's rollup summed as other (for rules: no rule): never among the top.
       SELECT *, row_number() OVER (PARTITION BY dimension ORDER BY value = '', humans + bots DESC, value) AS rank FROM summed
     )
     SELECT dimension, CASE WHEN rank <= (CASE WHEN dimension = 'rule' THEN ${topRules} ELSE ${topValues} END) AND value <> '' THEN value END AS value,
            sum(humans)::float8 AS humans, sum(bots)::float8 AS bots
     FROM ranked
     GROUP BY dimension, 2
     ORDER BY dimension, sum(humans + bots) DESC, 2`,
    ...rangeParams(codes, range),
  );
  const breakdowns = new Map<BreakdownDimension, Breakdown>();
  for (const dimension of breakdownDimensions) breakdowns.set(dimension, { top: [], other: { humans: 0, bots: 0 } });
  for (const r of rows) {
    const b = breakdowns.get(r.dimension)!;
    if (r.value === null) b.other = { humans: r.humans, bots: r.bots };
    else b.top.push({ value: r.value, humans: r.humans, bots: r.bots });
  }
  return breakdowns;
}
