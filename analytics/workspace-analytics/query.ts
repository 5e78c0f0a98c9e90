import { breakdownDimensions, type BreakdownDimension } from "../../visitors/dimensions";
import type { AnalyticsReader } from "../../limits/bounded-read";
import type { AnalyticsRange } from "../click-reads/range";
import { readClickAnalytics } from "../click-reads/read";
import { daysInRange, hoursInRange, rangeParams, type SeriesRows } from "../click-reads/series";
import { topRules, topValues, type Breakdown, type ClickAnalytics, type ClickCounts, type ValueCount } from "../click-reads/shapes";

/**
 * The click analytics of workspace `workspaceId` over `range`, in the shape of a link's
 * (link-analytics/query.ts), from the workspace's own rows (url migration 20) rather than
 * its links': the flush's recent rows not yet folded, the hourly rows per dimension value,
 * and the days older than the hourly retention. Hours and days count as in a link's
 * (click-reads/series.ts). Two statements of one bounded read (click-reads/read.ts); each
 * statement sees every click once, whichever table holds it at that moment. A dimension's
 * other is the clicks not among its top values, the values a workspace's hour or day did
 * not keep included.
 */
export async function workspaceClickAnalytics(workspaceId: string, range: AnalyticsRange): Promise<ClickAnalytics> {
  return readClickAnalytics({ series: seriesRows(workspaceId), breakdowns: (db, r) => breakdownsOf(db, workspaceId, r) }, range);
}

function seriesRows(workspaceId: string): SeriesRows {
  return {
    key: workspaceId,
    hours: `
      SELECT hour, humans, bots FROM workspace_clicks_hourly
      WHERE workspace_id = $1 AND dimension = 'all' AND ${hoursInRange}
      UNION ALL
      SELECT hour, CASE WHEN bot THEN 0 ELSE clicks END, CASE WHEN bot THEN clicks ELSE 0 END FROM workspace_clicks_recent
      WHERE workspace_id = $1 AND ${hoursInRange}`,
    days: `
      SELECT day, humans, bots FROM workspace_clicks_daily
      WHERE workspace_id = $1 AND dimension = 'all' AND ${daysInRange}`,
  };
}

/**
 * Each dimension's top values over the range, and (dimension 'all') every click in it, in
 * one statement: each dimension's other is what 'all' holds beyond its top values.
 */
async function breakdownsOf(db: AnalyticsReader, workspaceId: string, range: AnalyticsRange): Promise<Map<BreakdownDimension, Breakdown>> {
  const rows = await db.rawQueryAll<{ dimension: BreakdownDimension | "all"; value: string; humans: number; bots: number }>(
    `WITH summed AS (
       SELECT dimension, value, sum(humans) AS humans, sum(bots) AS bots
       FROM (
         SELECT dimension, value, humans, bots FROM workspace_clicks_hourly
         WHERE workspace_id = $1 AND ${hoursInRange}
         UNION ALL
         SELECT dimension, value, humans, bots FROM workspace_clicks_daily
         WHERE workspace_id = $1 AND ${daysInRange}
         UNION ALL
         SELECT d.dimension, d.value, CASE WHEN r.bot THEN 0 ELSE r.clicks END, CASE WHEN r.bot THEN r.clicks ELSE 0 END
         FROM workspace_clicks_recent r
         CROSS JOIN LATERAL (VALUES ('all', ''), ('referrer', r.referrer), ('country', r.country), ('browser', r.browser),
                                    ('os', r.os), ('device', r.device), ('rule', r.rule)) AS d(dimension, value)
         WHERE r.workspace_id = $1 AND ${hoursInRange}
           -- Value '' is the flush's row of others (rule '': no rule), counted in 'all' only.
           AND (d.dimension = 'all' OR d.value <> '')
       ) AS every_kind
       GROUP BY dimension, value
     ), ranked AS (
       SELECT *, row_number() OVER (PARTITION BY dimension ORDER BY humans + bots DESC, value) AS rank FROM summed
     )
     SELECT dimension, value, humans::float8 AS humans, bots::float8 AS bots
     FROM ranked
     WHERE dimension = 'all' OR rank <= CASE WHEN dimension = 'rule' THEN ${topRules} ELSE ${topValues} END
     ORDER BY dimension, humans + bots DESC, value`,
    ...rangeParams(workspaceId, range),
  );
  const all: ClickCounts = { humans: 0, bots: 0 };
  const tops = new Map<BreakdownDimension, ValueCount[]>(breakdownDimensions.map((d) => [d, []]));
  for (const r of rows) {
    if (r.dimension === "all") Object.assign(all, { humans: r.humans, bots: r.bots });
    else tops.get(r.dimension)?.push({ value: r.value, humans: r.humans, bots: r.bots });
  }
  const breakdowns = new Map<BreakdownDimension, Breakdown>();
  for (const [dimension, top] of tops) {
    const other = { humans: all.humans, bots: all.bots };
    for (const v of top) {
      other.humans -= v.humans;
      other.bots -= v.bots;
    }
    breakdowns.set(dimension, { top, other });
  }
  return breakdowns;
}
