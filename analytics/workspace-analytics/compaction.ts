import { urlDb } from "../url-db";
import { addKeepingTopValues, moveByWorkspace } from "./fold";

/** In one workspace's hour, each breakdown dimension keeps this many values; a later one counts in 'all' only. */
export const valuesPerHour = 50;

/**
 * Moves the clicks the flush added to workspace_clicks_recent (one row per combination of
 * values) into workspace_clicks_hourly (one row per dimension value), a batch of workspaces
 * per statement and transaction (fold.ts), so a click is never in both or neither and a run
 * stopped halfway loses nothing. Resolves with the rows moved.
 *
 * Each workspace's hour keeps its values in each dimension up to `valuesPerHour`, those
 * already stored first, then the most clicked of those moved. The rows moved are locked in
 * key order first, the order the flush adds to them in, so a flush adding to a row being
 * moved waits for this statement (and then adds a new row) rather than deadlocking with it;
 * two runs at once take turns (fold.ts's lock), the second moving what the first left.
 */
export async function compactRecentClicks(): Promise<number> {
  return moveByWorkspace(
    async (after, limit) =>
      (
        await urlDb.queryAll<{ workspace_id: string }>`
          SELECT DISTINCT workspace_id FROM workspace_clicks_recent WHERE workspace_id > ${after} ORDER BY workspace_id LIMIT ${limit}`
      ).map((r) => r.workspace_id),
    `WITH locked AS MATERIALIZED (
       SELECT workspace_id, hour, bot, referrer, country, browser, os, device, rule
       FROM workspace_clicks_recent
       WHERE workspace_id = ANY($1::text[])
       ORDER BY workspace_id COLLATE "C", hour, bot, referrer COLLATE "C", country COLLATE "C", browser COLLATE "C", os COLLATE "C",
                device COLLATE "C", rule COLLATE "C"
       FOR UPDATE
     ), moved AS (
       DELETE FROM workspace_clicks_recent t USING locked l
       WHERE t.workspace_id = l.workspace_id AND t.hour = l.hour AND t.bot = l.bot AND t.referrer = l.referrer AND t.country = l.country
         AND t.browser = l.browser AND t.os = l.os AND t.device = l.device AND t.rule = l.rule
       RETURNING t.*
     ), dims AS (
       SELECT workspace_id, hour,
              CASE WHEN GROUPING(referrer) = 0 THEN 'referrer' WHEN GROUPING(country) = 0 THEN 'country'
                   WHEN GROUPING(browser) = 0 THEN 'browser' WHEN GROUPING(os) = 0 THEN 'os'
                   WHEN GROUPING(device) = 0 THEN 'device' WHEN GROUPING(rule) = 0 THEN 'rule' ELSE 'all' END AS dimension,
              COALESCE(referrer, country, browser, os, device, rule, '') AS value,
              COALESCE(sum(clicks) FILTER (WHERE NOT bot), 0) AS humans, COALESCE(sum(clicks) FILTER (WHERE bot), 0) AS bots
       FROM moved
       GROUP BY workspace_id, hour, GROUPING SETS ((), (referrer), (country), (browser), (os), (device), (rule))
     ), fresh AS (
       -- Value '' is the flush's row of others (and rule '' no rule): counted in 'all' only.
       SELECT * FROM dims WHERE dimension = 'all' OR value <> ''
     ), ${addKeepingTopValues("hour", valuesPerHour)}
     SELECT count(*)::int AS moved FROM moved`,
  );
}
