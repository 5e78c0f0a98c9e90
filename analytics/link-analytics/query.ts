import { breakdownDimensions, type BreakdownDimension } from "../../visitors/dimensions";
import { boundedRead, type AnalyticsReader } from "../../limits/bounded-read";
import type { AnalyticsRange } from "./range";
import { urlDb } from "../url-db";

export interface ClickCounts {
  humans: number;
  bots: number;
}

export interface SeriesPoint extends ClickCounts {
  /** The bucket's start: a local midnight in the request's time zone for days, the hour for hours. */
  start: string;
}

export interface ValueCount extends ClickCounts {
  value: string;
}

export interface Breakdown {
  /** At most 10 values, most clicks (humans and bots) first, then by value. */
  top: ValueCount[];
  /** Every other value, summed. */
  other: ClickCounts;
}

export interface ClickAnalytics {
  totals: { all: number; humans: number; bots: number };
  series: SeriesPoint[];
  referrers: Breakdown;
  countries: Breakdown;
  browsers: Breakdown;
  os: Breakdown;
  devices: Breakdown;
  /**
   * Per targeting rule (its id as the link's rules list it, every rule that sent clicks);
   * `other`: the clicks no rule sent, which went to the link's own URL.
   */
  rules: Breakdown;
}

const topValues = 10;
/** A link has at most 20 rules (link-rules/redirect-rules.ts): each is listed. */
const topRules = 20;

/**
 * The analytics of the links `codes` over `range`: the series and every breakdown, in
 * two statements of one bounded read (limits/bounded-read.ts). Hourly rows count when their hour starts inside
 * the range (from rounded down to its hour); daily rows, older than the hourly
 * retention, when their UTC day does (from rounded down to its UTC day), and in a
 * day series they fall in the local day holding their UTC noon.
 */
export async function clickAnalytics(codes: readonly string[], range: AnalyticsRange): Promise<ClickAnalytics> {
  const [series, breakdowns] = await boundedRead(urlDb, async (tx) => [await seriesOf(tx, codes, range), await breakdownsOf(tx, codes, range)] as const);
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

async function seriesOf(db: AnalyticsReader, codes: readonly string[], { from, to, interval, tz }: AnalyticsRange): Promise<SeriesPoint[]> {
  const rows =
    interval === "hour"
      ? // Hour ranges lie inside the hourly retention (range.ts): no daily rows.
        await db.queryAll<{ start: Date; humans: number; bots: number }>`
          WITH hits AS (
            SELECT hour, sum(clicks) FILTER (WHERE NOT bot) AS humans, sum(clicks) FILTER (WHERE bot) AS bots
            FROM link_clicks_hourly
            WHERE code = ANY(${codes}::text[]) AND hour >= date_trunc('hour', ${from}::timestamptz) AND hour < ${to}::timestamptz
            GROUP BY hour
          )
          SELECT b AS start, COALESCE(hits.humans, 0)::float8 AS humans, COALESCE(hits.bots, 0)::float8 AS bots
          FROM generate_series(date_trunc('hour', ${from}::timestamptz), ${to}::timestamptz - interval '1 microsecond', interval '1 hour') AS b
          LEFT JOIN hits ON hits.hour = b
          ORDER BY b`
      : await db.queryAll<{ start: Date; humans: number; bots: number }>`
          WITH hits AS (
            SELECT date_trunc('day', hour AT TIME ZONE ${tz}) AS local_day,
                   sum(clicks) FILTER (WHERE NOT bot) AS humans, sum(clicks) FILTER (WHERE bot) AS bots
            FROM link_clicks_hourly
            WHERE code = ANY(${codes}::text[]) AND hour >= date_trunc('hour', ${from}::timestamptz) AND hour < ${to}::timestamptz
            GROUP BY 1
            UNION ALL
            SELECT date_trunc('day', ((day + time '12:00') AT TIME ZONE 'UTC') AT TIME ZONE ${tz}), sum(humans), sum(bots)
            FROM link_clicks_daily
            WHERE code = ANY(${codes}::text[]) AND dimension = 'all'
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

async function breakdownsOf(db: AnalyticsReader, codes: readonly string[], { from, to }: AnalyticsRange): Promise<Map<BreakdownDimension, Breakdown>> {
  const rows = await db.queryAll<{ dimension: BreakdownDimension; value: string | null; humans: number; bots: number }>`
    WITH hourly AS (
      -- The empty grouping set is the range's clicks, as rule '' (none) until rule_clicks takes the rules' off.
      SELECT CASE WHEN GROUPING(referrer) = 0 THEN 'referrer' WHEN GROUPING(country) = 0 THEN 'country'
                  WHEN GROUPING(browser) = 0 THEN 'browser' WHEN GROUPING(os) = 0 THEN 'os'
                  WHEN GROUPING(device) = 0 THEN 'device' ELSE 'rule' END AS dimension,
             COALESCE(referrer, country, browser, os, device, '') AS value,
             sum(clicks) FILTER (WHERE NOT bot) AS humans, sum(clicks) FILTER (WHERE bot) AS bots
      FROM link_clicks_hourly
      WHERE code = ANY(${codes}::text[]) AND hour >= date_trunc('hour', ${from}::timestamptz) AND hour < ${to}::timestamptz
      GROUP BY GROUPING SETS ((referrer), (country), (browser), (os), (device), ())
    ), rule_clicks AS (
      SELECT rule, sum(clicks) FILTER (WHERE NOT bot) AS humans, sum(clicks) FILTER (WHERE bot) AS bots
      FROM link_clicks_rules_hourly
      WHERE code = ANY(${codes}::text[]) AND hour >= date_trunc('hour', ${from}::timestamptz) AND hour < ${to}::timestamptz
      GROUP BY rule
    ), rules_hourly AS (
      SELECT 'rule' AS dimension, rule AS value, humans, bots FROM rule_clicks
      UNION ALL
      SELECT 'rule', '', -sum(humans), -sum(bots) FROM rule_clicks
    ), daily AS (
      SELECT dimension, value, sum(humans) AS humans, sum(bots) AS bots
      FROM link_clicks_daily
      WHERE code = ANY(${codes}::text[]) AND dimension <> 'all'
        AND day >= (${from}::timestamptz AT TIME ZONE 'UTC')::date AND (day::timestamp AT TIME ZONE 'UTC') < ${to}::timestamptz
      GROUP BY dimension, value
    ), summed AS (
      SELECT dimension, value, sum(COALESCE(humans, 0)) AS humans, sum(COALESCE(bots, 0)) AS bots
      FROM (SELECT * FROM hourly UNION ALL SELECT * FROM rules_hourly UNION ALL SELECT * FROM daily) AS both_kinds
      GROUP BY dimension, value
    ), ranked AS (
      -- Value '' is what a day's rollup summed as other (for rules: no rule): never among the top.
      SELECT *, row_number() OVER (PARTITION BY dimension ORDER BY value = '', humans + bots DESC, value) AS rank FROM summed
    )
    SELECT dimension, CASE WHEN rank <= (CASE WHEN dimension = 'rule' THEN ${topRules}::int ELSE ${topValues}::int END) AND value <> '' THEN value END AS value,
           sum(humans)::float8 AS humans, sum(bots)::float8 AS bots
    FROM ranked
    GROUP BY dimension, 2
    ORDER BY dimension, sum(humans + bots) DESC, 2`;
  const breakdowns = new Map<BreakdownDimension, Breakdown>();
  for (const dimension of breakdownDimensions) breakdowns.set(dimension, { top: [], other: { humans: 0, bots: 0 } });
  for (const r of rows) {
    const b = breakdowns.get(r.dimension)!;
    if (r.value === null) b.other = { humans: r.humans, bots: r.bots };
    else b.top.push({ value: r.value, humans: r.humans, bots: r.bots });
  }
  return breakdowns;
}
