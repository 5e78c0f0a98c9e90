import type { Primitive } from "encore.dev/storage/sqldb";
import type { AnalyticsReader } from "../../limits/bounded-read";
import type { AnalyticsRange } from "./range";
import type { SeriesPoint } from "./shapes";

/**
 * Every statement of an analytics read takes the same parameters, so that the SQL of one
 * kind of rows (a set of links', a workspace's) is written once and read by each: $1 the
 * rows' key (the links' codes, or the workspace's id), $2 the range's from, $3 its to, and
 * $4 its time zone (a series by day only). `rangeParams` lists them.
 */
export function rangeParams(key: string | string[], { from, to, tz }: AnalyticsRange, withZone = false): Primitive[] {
  return withZone ? [key, from, to, tz] : [key, from, to];
}

/** An hourly row counts when its hour starts inside the range, from rounded down to its hour. */
export const hoursInRange = "hour >= date_trunc('hour', $2::timestamptz) AND hour < $3::timestamptz";
/**
 * A daily row (older than the hourly retention) counts when its UTC day starts inside the
 * range, from rounded down to its UTC day.
 */
export const daysInRange = "day >= ($2::timestamptz AT TIME ZONE 'UTC')::date AND (day::timestamp AT TIME ZONE 'UTC') < $3::timestamptz";

/** Where one kind of analytics keeps its clicks over time, as SQL on the parameters above. */
export interface SeriesRows {
  readonly key: string | string[];
  /** Rows (hour, humans, bots) of the range's hours (`hoursInRange`); an hour may have several. */
  readonly hours: string;
  /** Rows (day, humans, bots) of the range's rolled-up UTC days (`daysInRange`), 'all' only. */
  readonly days: string;
}

/**
 * The range's series from `rows`: every hour of it, or every local day in its time zone, with
 * the clicks of the hourly rows starting in it and, by day, of the daily rows whose UTC noon
 * falls in it; empty buckets as zeros.
 */
export async function seriesOf(db: AnalyticsReader, rows: SeriesRows, range: AnalyticsRange): Promise<SeriesPoint[]> {
  const points =
    range.interval === "hour"
      ? // Hour ranges lie inside the hourly retention (range.ts): no daily rows.
        await db.rawQueryAll<{ start: Date; humans: number; bots: number }>(
          `WITH hits AS (
             SELECT hour, sum(humans) AS humans, sum(bots) AS bots FROM (${rows.hours}) AS h GROUP BY hour
           )
           SELECT b AS start, COALESCE(hits.humans, 0)::float8 AS humans, COALESCE(hits.bots, 0)::float8 AS bots
           FROM generate_series(date_trunc('hour', $2::timestamptz), $3::timestamptz - interval '1 microsecond', interval '1 hour') AS b
           LEFT JOIN hits ON hits.hour = b
           ORDER BY b`,
          ...rangeParams(rows.key, range),
        )
      : await db.rawQueryAll<{ start: Date; humans: number; bots: number }>(
          `WITH hits AS (
             SELECT date_trunc('day', hour AT TIME ZONE $4) AS local_day, sum(humans) AS humans, sum(bots) AS bots
             FROM (${rows.hours}) AS h
             GROUP BY 1
             UNION ALL
             SELECT date_trunc('day', ((day + time '12:00') AT TIME ZONE 'UTC') AT TIME ZONE $4), sum(humans), sum(bots)
             FROM (${rows.days}) AS d
             GROUP BY 1
           ), days AS (
             SELECT local_day, sum(humans) AS humans, sum(bots) AS bots FROM hits GROUP BY local_day
           )
           SELECT b AT TIME ZONE $4 AS start, COALESCE(days.humans, 0)::float8 AS humans, COALESCE(days.bots, 0)::float8 AS bots
           FROM generate_series(date_trunc('day', $2::timestamptz AT TIME ZONE $4),
                                date_trunc('day', ($3::timestamptz - interval '1 microsecond') AT TIME ZONE $4),
                                interval '1 day') AS b
           LEFT JOIN days ON days.local_day = b
           ORDER BY b`,
          ...rangeParams(rows.key, range, true),
        );
  return points.map((r) => ({ start: r.start.toISOString(), humans: r.humans, bots: r.bots }));
}
