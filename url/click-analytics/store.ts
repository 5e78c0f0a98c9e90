import type { Transaction } from "encore.dev/storage/sqldb";
import { clickKey } from "../../click-counter/click-keys";
import { db } from "../db";
import { hourOf } from "../../visitors/dimensions";
import { hourlyRows } from "./rows";
import { addRuleClicks } from "./rule-clicks";
import { addToExistingRows } from "./existing-rows";
import { addWorkspaceClicks } from "./workspace-clicks";
import { workspaceFold } from "./workspace-fold";

// A click key is `code TAB hour TAB referrer TAB country TAB b|h TAB browser TAB os TAB
// device`, then `TAB rule` when a targeting rule sent the click (dimensions.ts; the rule
// is counted apart, rule-clicks.ts): split here into link_clicks_hourly's columns. A batch's keys
// travel as one text, a line each (no value holds a line break: dimensions.ts
// cleanValue), rather than as an array the driver would escape element by element on
// the request thread.

/**
 * How much variety one link's hour keeps (the bound docs/app.md documents): each of its
 * breakdown dimensions at most `valuesPerHour` distinct values, the first seen (most
 * clicked first within a batch); later values are counted as other (value ''). And at
 * most `rowsPerHour` rows, one per combination of values: a click whose combination
 * would be a row past that is counted in the hour's row of others in every dimension
 * (one for humans, one for bots). Every click is counted in exactly one row, so totals,
 * humans and bots, and the series stay exact whatever visitors send.
 */
export const valuesPerHour = 50;
export const rowsPerHour = 500;

/**
 * Adds a batch's clicks (per click key) to their links' hourly analytics rows, inside
 * the transaction that adds them to urls.clicks (click-counting/store.ts) and that
 * holds their links' urls rows locked: so both are stored exactly once together, and
 * two instances adding to one link's hour do it one after the other, each statement
 * seeing the rows the other committed, which keeps the bound exact. One statement adds
 * to the rows that exist (existing-rows.ts), one more places the combinations new to
 * their hour when the batch has some, one more when targeting rules sent some of its
 * clicks (rule-clicks.ts), and one adding the workspace links' clicks to their
 * workspaces' rows (workspace-clicks.ts) unless the caller, which read the links' rows,
 * says none of them is a workspace's (`anyInWorkspace`): a batch of anonymous links has no
 * workspace rows to add to. Resolves with whether it added to workspaces' rows: the caller
 * then arms their fold into hours once its transaction has ended (workspace-fold.ts), so the
 * fold finds them committed.
 */
export async function addClickAnalytics(
  tx: Transaction,
  counts: ReadonlyMap<string, number>,
  stored: ReadonlySet<string>,
  anyInWorkspace = true,
): Promise<boolean> {
  if (stored.size === 0) return false;
  const { keys, clicks } = hourlyRows(counts, stored, hourOf(Date.now()));
  if (keys.length === 0) return false;
  const fresh = await addToExistingRows(tx, keys, clicks);
  if (fresh.keys.length > 0) await placeNewRows(tx, fresh.keys, fresh.clicks);
  await addRuleClicks(tx, keys, clicks);
  if (!anyInWorkspace) return false;
  await addWorkspaceClicks(tx, keys, clicks);
  return true;
}

/**
 * Adds keys whose combination is new to its hour, within the hour's bound: the values
 * and rows already stored keep their place, new ones come in most clicked first while
 * there is room, the rest count as other.
 */
async function placeNewRows(tx: Transaction, keys: readonly string[], clicks: readonly number[]): Promise<void> {
  await tx.exec`
    WITH v AS (
      SELECT split_part(k, E'\t', 1) AS code, to_timestamp(split_part(k, E'\t', 2)::bigint * 3600) AS hour, split_part(k, E'\t', 5) = 'b' AS bot,
             split_part(k, E'\t', 3) AS referrer, split_part(k, E'\t', 4) AS country,
             split_part(k, E'\t', 6) AS browser, split_part(k, E'\t', 7) AS os, split_part(k, E'\t', 8) AS device, n
      FROM unnest(string_to_array(${keys.join("\n")}, E'\n'), string_to_array(${clicks.join(",")}, ',')::bigint[]) AS v(k, n)
    ), hours AS (
      SELECT DISTINCT code, hour FROM v
    ), stored AS (
      -- Each hour's rows by the key's prefix (LATERAL: an index range per link-hour, never a scan of the table).
      SELECT hours.code, hours.hour, t.bot, t.referrer, t.country, t.browser, t.os, t.device
      FROM hours CROSS JOIN LATERAL (
        SELECT bot, referrer, country, browser, os, device FROM link_clicks_hourly WHERE code = hours.code AND hour = hours.hour
      ) AS t
    ), dim_values AS (
      -- Each dimension's values in each hour: those stored keep their place, new ones come
      -- in most clicked first while the hour has room.
      SELECT code, hour, d, value, bool_or(old) AS old, sum(n) AS n
      FROM (
        SELECT code, hour, x.d, x.value, true AS old, 0::bigint AS n
        FROM stored CROSS JOIN LATERAL (VALUES ('r', referrer), ('c', country), ('b', browser), ('o', os), ('d', device)) AS x(d, value)
        UNION ALL
        SELECT code, hour, x.d, x.value, false, n
        FROM v CROSS JOIN LATERAL (VALUES ('r', referrer), ('c', country), ('b', browser), ('o', os), ('d', device)) AS x(d, value)
      ) AS a
      WHERE value <> ''
      GROUP BY code, hour, d, value
    ), kept AS (
      SELECT code, hour, d, value
      FROM (SELECT *, row_number() OVER (PARTITION BY code, hour, d ORDER BY old DESC, n DESC, value) AS rank FROM dim_values) AS r
      WHERE old OR rank <= ${valuesPerHour}
    ), capped AS (
      SELECT v.code, v.hour, v.bot, COALESCE(r.value, '') AS referrer, COALESCE(c.value, '') AS country,
             COALESCE(b.value, '') AS browser, COALESCE(o.value, '') AS os, COALESCE(d.value, '') AS device, sum(v.n) AS n
      FROM v
      LEFT JOIN kept r ON r.code = v.code AND r.hour = v.hour AND r.d = 'r' AND r.value = v.referrer
      LEFT JOIN kept c ON c.code = v.code AND c.hour = v.hour AND c.d = 'c' AND c.value = v.country
      LEFT JOIN kept b ON b.code = v.code AND b.hour = v.hour AND b.d = 'b' AND b.value = v.browser
      LEFT JOIN kept o ON o.code = v.code AND o.hour = v.hour AND o.d = 'o' AND o.value = v.os
      LEFT JOIN kept d ON d.code = v.code AND d.hour = v.hour AND d.d = 'd' AND d.value = v.device
      GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
    ), rows_now AS (
      SELECT code, hour, count(*) AS n FROM stored GROUP BY code, hour
    ), ranked AS (
      -- New combinations come in most clicked first while the hour has fewer rows than the bound.
      SELECT capped.*, s.code IS NOT NULL AS old,
             COALESCE(rows_now.n, 0) + row_number() OVER (PARTITION BY capped.code, capped.hour, s.code IS NULL ORDER BY capped.n DESC,
               capped.bot, capped.referrer, capped.country, capped.browser, capped.os, capped.device) AS place
      FROM capped
      LEFT JOIN stored s ON s.code = capped.code AND s.hour = capped.hour AND s.bot = capped.bot AND s.referrer = capped.referrer
        AND s.country = capped.country AND s.browser = capped.browser AND s.os = capped.os AND s.device = capped.device
      LEFT JOIN rows_now ON rows_now.code = capped.code AND rows_now.hour = capped.hour
    ), placed AS (
      SELECT code, hour, bot, CASE WHEN rowed THEN referrer ELSE '' END AS referrer, CASE WHEN rowed THEN country ELSE '' END AS country,
             CASE WHEN rowed THEN browser ELSE '' END AS browser, CASE WHEN rowed THEN os ELSE '' END AS os,
             CASE WHEN rowed THEN device ELSE '' END AS device, n
      FROM (SELECT *, old OR place <= ${rowsPerHour} AS rowed FROM ranked) AS p
    )
    INSERT INTO link_clicks_hourly AS t (code, hour, bot, referrer, country, browser, os, device, clicks)
    SELECT code, hour, bot, referrer, country, browser, os, device, sum(n)
    FROM placed
    GROUP BY code, hour, bot, referrer, country, browser, os, device
    ORDER BY code COLLATE "C", hour, bot, referrer COLLATE "C", country COLLATE "C", browser COLLATE "C", os COLLATE "C", device COLLATE "C"
    ON CONFLICT (code, hour, bot, referrer, country, browser, os, device) DO UPDATE SET clicks = t.clicks + EXCLUDED.clicks`;
}

/**
 * Counts one click of a link with a click budget: the click and its analytics row are
 * added only when the budget allows (the UPDATE finds its row), atomically across
 * instances, in one transaction whose UPDATE holds the link's row, so its analytics
 * keep the bound as the batched flush's do. Resolves false when the budget is spent.
 */
export async function addBudgetedClick(code: string, details: string): Promise<boolean> {
  await using tx = await db.begin();
  const row = await tx.queryRow<{ in_workspace: boolean }>`
    UPDATE urls SET clicks = clicks + 1 WHERE code = ${code} AND (max_clicks IS NULL OR clicks < max_clicks)
    RETURNING workspace_id IS NOT NULL AS in_workspace`;
  if (row === null) return false;
  const toFold = await addClickAnalytics(tx, new Map([[clickKey(code, details), 1]]), new Set([code]), row.in_workspace);
  await tx.commit();
  if (toFold) workspaceFold.due();
  return true;
}
