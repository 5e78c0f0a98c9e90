import { urlDb } from "../url-db";

/** In one workspace's hour, each breakdown dimension keeps this many values; a later one counts in 'all' only. */
export const valuesPerHour = 50;
/** Workspaces moved per statement: one transaction each, short enough not to hold up the click flush. */
const workspacesPerBatch = 500;
/** The advisory lock each transaction writing workspace_clicks_hourly (this one and the rollup's) holds, so they take turns. */
export const workspaceHourlyLock = "workspace_clicks_hourly writers";

/**
 * Moves the clicks the flush added to workspace_clicks_recent (one row per combination of
 * values) into workspace_clicks_hourly (one row per dimension value), a batch of workspaces
 * at a time, each batch one statement: the rows leave one table and are added to the other
 * in the same transaction, so a click is never in both or neither, and a run stopped
 * halfway loses nothing. Resolves with the rows moved.
 *
 * Each workspace's hour keeps its values in each dimension up to `valuesPerHour`, those
 * already stored first, then the most clicked of those moved; a value past them is counted
 * in 'all' only, which the breakdowns' other is made from. The rows moved are locked in key
 * order first, the order the flush adds to them in, so a flush adding to a row being moved
 * waits for this statement (and then adds a new row) rather than deadlocking with it.
 */
export async function compactRecentClicks(): Promise<number> {
  let moved = 0;
  let after = "";
  for (;;) {
    const batch = await urlDb.queryAll<{ workspace_id: string }>`
      SELECT DISTINCT workspace_id FROM workspace_clicks_recent WHERE workspace_id > ${after} ORDER BY workspace_id LIMIT ${workspacesPerBatch}`;
    if (batch.length === 0) return moved;
    const workspaces = batch.map((r) => r.workspace_id);
    await using tx = await urlDb.begin();
    await tx.exec`SELECT pg_advisory_xact_lock(hashtext(${workspaceHourlyLock}))`;
    const row = await tx.queryRow<{ moved: number }>`
      WITH locked AS MATERIALIZED (
        SELECT workspace_id, hour, bot, referrer, country, browser, os, device, rule
        FROM workspace_clicks_recent
        WHERE workspace_id = ANY(${workspaces}::text[])
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
      ), stored AS (
        SELECT h.workspace_id, h.dimension, h.hour, h.value
        FROM (SELECT DISTINCT workspace_id, dimension, hour FROM fresh WHERE dimension <> 'all') AS g
        JOIN workspace_clicks_hourly h ON h.workspace_id = g.workspace_id AND h.dimension = g.dimension AND h.hour = g.hour
      ), counts AS (
        SELECT workspace_id, dimension, hour, count(*) AS n FROM stored GROUP BY 1, 2, 3
      ), placed AS (
        -- Values stored keep their rows; new ones come in most clicked first while the hour has room.
        SELECT f.*, s.value IS NOT NULL AS old,
               COALESCE(c.n, 0) + row_number() OVER (PARTITION BY f.workspace_id, f.dimension, f.hour, s.value IS NULL ORDER BY f.humans + f.bots DESC, f.value) AS place
        FROM fresh f
        LEFT JOIN stored s ON s.workspace_id = f.workspace_id AND s.dimension = f.dimension AND s.hour = f.hour AND s.value = f.value
        LEFT JOIN counts c ON c.workspace_id = f.workspace_id AND c.dimension = f.dimension AND c.hour = f.hour
      ), added AS (
        INSERT INTO workspace_clicks_hourly AS t (workspace_id, dimension, hour, value, humans, bots)
        SELECT workspace_id, dimension, hour, value, humans, bots
        FROM placed
        WHERE dimension = 'all' OR old OR place <= ${valuesPerHour}
        ON CONFLICT (workspace_id, dimension, hour, value) DO UPDATE SET humans = t.humans + EXCLUDED.humans, bots = t.bots + EXCLUDED.bots
      )
      SELECT count(*)::int AS moved FROM moved`;
    await tx.commit();
    moved += row!.moved;
    after = workspaces.at(-1)!;
  }
}
