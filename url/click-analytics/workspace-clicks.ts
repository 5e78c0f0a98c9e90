import type { Transaction } from "encore.dev/storage/sqldb";

/**
 * How many rows (combinations of values) one workspace's hour holds in
 * workspace_clicks_recent between two folds (a flush that adds to them arms the fold,
 * workspace-fold.ts, which moves them into a row per dimension value minutes later).
 * A click whose combination would be a further row is added to the hour's row of others in
 * every dimension (one for humans, one for bots), so the rows a read of a workspace's last
 * minutes sums stay few whatever its visitors send. A bound per statement: instances
 * flushing at the same moment may each add a batch's rows past it.
 */
export const recentRowsPerHour = 1000;

/**
 * Adds a batch's clicks of workspace links to their workspaces' rows (url migration 20),
 * in the flush's transaction, so that a workspace's analytics (GET /me/clicks) are stored
 * exactly once with its links' and read without visiting each link: one row per workspace,
 * hour and combination of values (the rule that sent the click included), so a batch adds
 * to at most as many rows as its links' own, and to far fewer when many of a workspace's
 * links share visitors. `keys` and `clicks` are the batch's link rows as
 * click-analytics/store.ts passes them; each key's workspace is read from its urls row,
 * which this transaction already holds. Anonymous links have none and add nothing.
 */
export async function addWorkspaceClicks(tx: Transaction, keys: readonly string[], clicks: readonly number[]): Promise<void> {
  await tx.exec`
    WITH v AS (
      SELECT split_part(k, E'\t', 1) AS code, to_timestamp(split_part(k, E'\t', 2)::bigint * 3600) AS hour, split_part(k, E'\t', 5) = 'b' AS bot,
             split_part(k, E'\t', 3) AS referrer, split_part(k, E'\t', 4) AS country, split_part(k, E'\t', 6) AS browser,
             split_part(k, E'\t', 7) AS os, split_part(k, E'\t', 8) AS device, split_part(k, E'\t', 9) AS rule, n
      FROM unnest(string_to_array(${keys.join("\n")}, E'\n'), string_to_array(${clicks.join(",")}, ',')::bigint[]) AS v(k, n)
    ), owned AS (
      SELECT u.code, u.workspace_id FROM (SELECT DISTINCT code FROM v) AS c JOIN urls u ON u.code = c.code WHERE u.workspace_id IS NOT NULL
    ), w AS (
      SELECT owned.workspace_id, v.hour, v.bot, v.referrer, v.country, v.browser, v.os, v.device, v.rule, sum(v.n) AS n,
             count(*) OVER (PARTITION BY owned.workspace_id, v.hour) AS batch_rows
      FROM v JOIN owned USING (code)
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9
    ), rows_now AS MATERIALIZED (
      SELECT h.workspace_id, h.hour, (SELECT count(*) FROM workspace_clicks_recent r WHERE r.workspace_id = h.workspace_id AND r.hour = h.hour) AS n
      FROM (SELECT DISTINCT workspace_id, hour FROM w) AS h
    ), marked AS (
      -- Within the bound (almost always), every combination has a row; past it (rare: the CASE
      -- looks rows up only then), a stored combination keeps its row and new ones come in most
      -- clicked first while the hour has room.
      SELECT w.*, rows_now.n AS stored_rows, rows_now.n + w.batch_rows <= ${recentRowsPerHour} AS room,
             CASE WHEN rows_now.n + w.batch_rows <= ${recentRowsPerHour} THEN false
                  ELSE EXISTS (SELECT 1 FROM workspace_clicks_recent r WHERE r.workspace_id = w.workspace_id AND r.hour = w.hour AND r.bot = w.bot
                                 AND r.referrer = w.referrer AND r.country = w.country AND r.browser = w.browser AND r.os = w.os
                                 AND r.device = w.device AND r.rule = w.rule) END AS old
      FROM w JOIN rows_now USING (workspace_id, hour)
    ), placed AS (
      SELECT marked.*, room OR old
             OR stored_rows + row_number() OVER (PARTITION BY workspace_id, hour, old ORDER BY n DESC, bot, referrer, country, browser, os, device, rule)
                <= ${recentRowsPerHour} AS rowed
      FROM marked
    ), capped AS (
      SELECT workspace_id, hour, bot, CASE WHEN rowed THEN referrer ELSE '' END AS referrer, CASE WHEN rowed THEN country ELSE '' END AS country,
             CASE WHEN rowed THEN browser ELSE '' END AS browser, CASE WHEN rowed THEN os ELSE '' END AS os,
             CASE WHEN rowed THEN device ELSE '' END AS device, CASE WHEN rowed THEN rule ELSE '' END AS rule, n
      FROM placed
    )
    INSERT INTO workspace_clicks_recent AS t (workspace_id, hour, bot, referrer, country, browser, os, device, rule, clicks)
    SELECT workspace_id, hour, bot, referrer, country, browser, os, device, rule, sum(n)
    FROM capped
    GROUP BY workspace_id, hour, bot, referrer, country, browser, os, device, rule
    -- In key order, as the fold locks them: two writers of one workspace's rows take them in the same order.
    ORDER BY workspace_id COLLATE "C", hour, bot, referrer COLLATE "C", country COLLATE "C", browser COLLATE "C", os COLLATE "C",
             device COLLATE "C", rule COLLATE "C"
    ON CONFLICT (workspace_id, hour, bot, referrer, country, browser, os, device, rule) DO UPDATE SET clicks = t.clicks + EXCLUDED.clicks`;
}
