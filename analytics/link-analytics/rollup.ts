import { urlDb } from "../url-db";
import { hourlyRetentionDays } from "../click-reads/range";

/** In a rolled-up day, a dimension keeps this many values per link; the rest are summed under value '' (other). */
export const topValuesPerDay = 50;
/** Links moved per statement: one transaction each, short enough not to hold up the click flush. */
const linksPerBatch = 500;

/**
 * Moves hourly click rows older than the hourly retention (35 days, whole UTC days) into
 * daily rows, a batch of links at a time, each batch one statement: the rows leave the
 * hourly table and land in the daily one in the same transaction, so a click is never
 * in both or neither, and a run stopped halfway loses nothing. Resolves with the hourly
 * rows moved.
 *
 * Each link's day gets one row per dimension value ('all' for the series), its top 50
 * values per dimension kept and the rest summed as other (''), so a link's daily rows
 * are at most 1 + 6 × 51 per day with clicks. Dimension 'rule' is the targeting rule that
 * sent the clicks (link_clicks_rules_hourly, moved in the same statement), '' for none (the
 * link's own URL). Rows a late journal replay adds to an old
 * hour are moved by the next run and added to their day.
 */
export async function rollUpClickAnalytics(now = new Date()): Promise<number> {
  const cutoff = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - hourlyRetentionDays));
  let moved = 0;
  let after = "";
  for (;;) {
    const batch = await urlDb.queryAll<{ code: string }>`
      SELECT DISTINCT code FROM link_clicks_hourly WHERE code > ${after} AND hour < ${cutoff} ORDER BY code LIMIT ${linksPerBatch}`;
    if (batch.length === 0) return moved;
    const codes = batch.map((r) => r.code);
    const row = await urlDb.queryRow<{ moved: number }>`
      WITH moved AS (
        DELETE FROM link_clicks_hourly WHERE code = ANY(${codes}::text[]) AND hour < ${cutoff} RETURNING *
      ), moved_rules AS (
        DELETE FROM link_clicks_rules_hourly WHERE code = ANY(${codes}::text[]) AND hour < ${cutoff} RETURNING *
      ), dims AS (
        SELECT code, (hour AT TIME ZONE 'UTC')::date AS day,
               CASE WHEN GROUPING(referrer) = 0 THEN 'referrer' WHEN GROUPING(country) = 0 THEN 'country'
                    WHEN GROUPING(browser) = 0 THEN 'browser' WHEN GROUPING(os) = 0 THEN 'os'
                    WHEN GROUPING(device) = 0 THEN 'device' ELSE 'all' END AS dimension,
               COALESCE(referrer, country, browser, os, device, '') AS value,
               COALESCE(sum(clicks) FILTER (WHERE NOT bot), 0) AS humans, COALESCE(sum(clicks) FILTER (WHERE bot), 0) AS bots
        FROM moved
        GROUP BY code, (hour AT TIME ZONE 'UTC')::date, GROUPING SETS ((), (referrer), (country), (browser), (os), (device))
      ), rule_days AS (
        SELECT code, (hour AT TIME ZONE 'UTC')::date AS day, rule,
               COALESCE(sum(clicks) FILTER (WHERE NOT bot), 0) AS humans, COALESCE(sum(clicks) FILTER (WHERE bot), 0) AS bots
        FROM moved_rules
        GROUP BY 1, 2, 3
      ), all_dims AS (
        -- Dimension 'rule': each rule's clicks, and as '' (none) the day's clicks less the rules'.
        SELECT * FROM dims
        UNION ALL SELECT code, day, 'rule', rule, humans, bots FROM rule_days
        UNION ALL SELECT code, day, 'rule', '', humans, bots FROM dims WHERE dimension = 'all'
        UNION ALL SELECT code, day, 'rule', '', -humans, -bots FROM rule_days
      ), ranked AS (
        -- Value '' is what an hour counted as other (click-analytics/store.ts): never among the top.
        SELECT *, row_number() OVER (PARTITION BY code, day, dimension ORDER BY value = '', humans + bots DESC, value) AS rank FROM all_dims
      ), added AS (
        INSERT INTO link_clicks_daily AS t (code, dimension, day, value, humans, bots)
        SELECT code, dimension, day, CASE WHEN rank <= ${topValuesPerDay} THEN value ELSE '' END, sum(humans), sum(bots)
        FROM ranked
        GROUP BY code, dimension, day, 4
        ON CONFLICT (code, dimension, day, value) DO UPDATE SET humans = t.humans + EXCLUDED.humans, bots = t.bots + EXCLUDED.bots
      )
      SELECT count(*)::int AS moved FROM moved`;
    moved += row!.moved;
    after = codes.at(-1)!;
  }
}
