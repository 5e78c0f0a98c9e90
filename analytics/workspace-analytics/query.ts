import { breakdownDimensions, type BreakdownDimension } from "../../visitors/dimensions";
import { boundedRead, type AnalyticsReader } from "../../limits/bounded-read";
import type { AnalyticsRange } from "../link-analytics/range";
import type { Breakdown, ClickAnalytics, ClickCounts, SeriesPoint, ValueCount } from "../link-analytics/query";
import { urlDb } from "../url-db";

/** Values listed per breakdown, as for a link (link-analytics/query.ts); every rule up to 20. */
const topValues = 10;
const topRules = 20;

/**
 * The click analytics of workspace `workspaceId` over `range`, in the shape of a link's
 * (link-analytics/query.ts), from the workspace's own rows (url migration 20) rather than
 * its links': the flush's recent rows not yet compacted, the hourly rows per dimension value,
 * and the days older than the hourly retention. Hours and days count as in a link's. Two
 * statements of one bounded read (limits/bounded-read.ts); each statement sees every click
 * once, whichever table holds it at that moment. A dimension's other is the clicks not among
 * its top values, the values a workspace's hour or day did not keep included.
 */
export async function workspaceClickAnalytics(workspaceId: string, range: AnalyticsRange): Promise<ClickAnalytics> {
  const [series, breakdowns] = await boundedRead(urlDb, async (tx) => [await seriesOf(tx, workspaceId, range), await breakdownsOf(tx, workspaceId, range)] as const);
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

async function seriesOf(db: AnalyticsReader, workspaceId: string, { from, to, interval, tz }: AnalyticsRange): Promise<SeriesPoint[]> {
  const rows =
    interval === "hour"
      ? // Hour ranges lie inside the hourly retention (range.ts): no daily rows.
        await db.queryAll<{ start: Date; humans: number; bots: number }>`
          WITH hits AS (
            SELECT hour, sum(humans) AS humans, sum(bots) AS bots
            FROM (
              SELECT hour, humans, bots FROM workspace_clicks_hourly
              WHERE workspace_id = ${workspaceId} AND dimension = 'all' AND hour >= date_trunc('hour', ${from}::timestamptz) AND hour < ${to}::timestamptz
              UNION ALL
              SELECT hour, CASE WHEN bot THEN 0 ELSE clicks END, CASE WHEN bot THEN clicks ELSE 0 END FROM workspace_clicks_recent
              WHERE workspace_id = ${workspaceId} AND hour >= date_trunc('hour', ${from}::timestamptz) AND hour < ${to}::timestamptz
            ) AS both_kinds
            GROUP BY hour
          )
          SELECT b AS start, COALESCE(hits.humans, 0)::float8 AS humans, COALESCE(hits.bots, 0)::float8 AS bots
          FROM generate_series(date_trunc('hour', ${from}::timestamptz), ${to}::timestamptz - interval '1 microsecond', interval '1 hour') AS b
          LEFT JOIN hits ON hits.hour = b
          ORDER BY b`
      : await db.queryAll<{ start: Date; humans: number; bots: number }>`
          WITH hours AS (
            SELECT hour, humans, bots FROM workspace_clicks_hourly
            WHERE workspace_id = ${workspaceId} AND dimension = 'all' AND hour >= date_trunc('hour', ${from}::timestamptz) AND hour < ${to}::timestamptz
            UNION ALL
            SELECT hour, CASE WHEN bot THEN 0 ELSE clicks END, CASE WHEN bot THEN clicks ELSE 0 END FROM workspace_clicks_recent
            WHERE workspace_id = ${workspaceId} AND hour >= date_trunc('hour', ${from}::timestamptz) AND hour < ${to}::timestamptz
          ), hits AS (
            SELECT date_trunc('day', hour AT TIME ZONE ${tz}) AS local_day, sum(humans) AS humans, sum(bots) AS bots FROM hours GROUP BY 1
            UNION ALL
            SELECT date_trunc('day', ((day + time '12:00') AT TIME ZONE 'UTC') AT TIME ZONE ${tz}), sum(humans), sum(bots)
            FROM workspace_clicks_daily
            WHERE workspace_id = ${workspaceId} AND dimension = 'all'
              AND day >= (${from}::timestamptz AT TIME ZONE 'UTC')::date AND (day::timestamp AT TIME ZONE 'UTC') < ${to}::timestamptz
            GROUP BY 1
          ), days AS (
            SELECT local_day, sum(humans) AS humans, sum(bots) AS bots FROM hits GROUP BY local_day
          )
          SELECT b AT TIME ZONE ${tz} AS start, COALESCE(days.humans, 0)::float8 AS humans, COALESCE(days.bots, 0)::float8 AS bots
          FROM generate_series(date_trunc('day', ${from}::timestamptz AT TIME ZONE ${tz}),
                               date_trunc('day', (${to}::timestamptz - interval '1 microsecond') AT TIME ZONE ${tz}),
                               interval '1 day') AS b
          LEFT JOIN days ON days.local_day = b
          ORDER BY b`;
  return rows.map((r) => ({ start: r.start.toISOString(), humans: r.humans, bots: r.bots }));
}

/**
 * Each dimension's top values over the range, and (dimension 'all') every click in it, in
 * one statement: each dimension's other is what 'all' holds beyond its top values.
 */
async function breakdownsOf(db: AnalyticsReader, workspaceId: string, { from, to }: AnalyticsRange): Promise<Map<BreakdownDimension, Breakdown>> {
  const rows = await db.queryAll<{ dimension: BreakdownDimension | "all"; value: string; humans: number; bots: number }>`
    WITH summed AS (
      SELECT dimension, value, sum(humans) AS humans, sum(bots) AS bots
      FROM (
        SELECT dimension, value, humans, bots FROM workspace_clicks_hourly
        WHERE workspace_id = ${workspaceId} AND hour >= date_trunc('hour', ${from}::timestamptz) AND hour < ${to}::timestamptz
        UNION ALL
        SELECT dimension, value, humans, bots FROM workspace_clicks_daily
        WHERE workspace_id = ${workspaceId}
          AND day >= (${from}::timestamptz AT TIME ZONE 'UTC')::date AND (day::timestamp AT TIME ZONE 'UTC') < ${to}::timestamptz
        UNION ALL
        SELECT d.dimension, d.value, CASE WHEN r.bot THEN 0 ELSE r.clicks END, CASE WHEN r.bot THEN r.clicks ELSE 0 END
        FROM workspace_clicks_recent r
        CROSS JOIN LATERAL (VALUES ('all', ''), ('referrer', r.referrer), ('country', r.country), ('browser', r.browser),
                                   ('os', r.os), ('device', r.device), ('rule', r.rule)) AS d(dimension, value)
        WHERE r.workspace_id = ${workspaceId} AND r.hour >= date_trunc('hour', ${from}::timestamptz) AND r.hour < ${to}::timestamptz
          -- Value '' is the flush's row of others (rule '': no rule), counted in 'all' only.
          AND (d.dimension = 'all' OR d.value <> '')
      ) AS every_kind
      GROUP BY dimension, value
    ), ranked AS (
      SELECT *, row_number() OVER (PARTITION BY dimension ORDER BY humans + bots DESC, value) AS rank FROM summed
    )
    SELECT dimension, value, humans::float8 AS humans, bots::float8 AS bots
    FROM ranked
    WHERE dimension = 'all' OR rank <= CASE WHEN dimension = 'rule' THEN ${topRules}::int ELSE ${topValues}::int END
    ORDER BY dimension, humans + bots DESC, value`;
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
