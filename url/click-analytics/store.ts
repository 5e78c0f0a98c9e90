import type { Transaction } from "encore.dev/storage/sqldb";
import { clickKey } from "../click-counting/batches";
import { db } from "../db";
import { hourOf } from "./dimensions";
import { hourlyRows } from "./rows";

// A click key is `code TAB hour TAB referrer TAB country TAB b|h TAB browser TAB os TAB
// device` (dimensions.ts): split here into link_clicks_hourly's columns. Rows are added
// in the key's byte order, so two instances adding to the same rows lock them in the
// same order and cannot deadlock. A batch's keys travel as one text, a line each (no
// value holds a line break: dimensions.ts cleanValue), rather than as an array the
// driver would escape element by element on the request thread.

/**
 * Adds a batch's clicks (per click key) to their links' hourly analytics rows, inside
 * the transaction that adds them to urls.clicks (click-counting/store.ts), so both are
 * stored exactly once together. One statement for the whole batch.
 */
export async function addClickAnalytics(tx: Transaction, counts: ReadonlyMap<string, number>, stored: ReadonlySet<string>): Promise<void> {
  if (stored.size === 0) return;
  const { keys, clicks } = hourlyRows(counts, stored, hourOf(Date.now()));
  if (keys.length === 0) return;
  await tx.exec`
    INSERT INTO link_clicks_hourly AS t (code, hour, bot, referrer, country, browser, os, device, clicks)
    SELECT split_part(k, E'\t', 1), to_timestamp(split_part(k, E'\t', 2)::bigint * 3600), split_part(k, E'\t', 5) = 'b',
           split_part(k, E'\t', 3), split_part(k, E'\t', 4), split_part(k, E'\t', 6), split_part(k, E'\t', 7), split_part(k, E'\t', 8), n
    FROM unnest(string_to_array(${keys.join("\n")}, E'\n'), string_to_array(${clicks.join(",")}, ',')::bigint[]) AS v(k, n)
    ORDER BY k COLLATE "C"
    ON CONFLICT (code, hour, bot, referrer, country, browser, os, device) DO UPDATE SET clicks = t.clicks + EXCLUDED.clicks`;
}

/**
 * Counts one click of a link with a click budget, in one statement: the click and its
 * analytics row are added only when the budget allows (the UPDATE finds its row),
 * atomically across instances. Resolves false when the budget is spent.
 */
export async function addBudgetedClick(code: string, details: string): Promise<boolean> {
  const k = clickKey(code, details);
  const row = await db.queryRow<{ counted: number }>`
    WITH counted AS (
      UPDATE urls SET clicks = clicks + 1
      WHERE code = ${code} AND (max_clicks IS NULL OR clicks < max_clicks)
      RETURNING code
    ), added AS (
      INSERT INTO link_clicks_hourly AS t (code, hour, bot, referrer, country, browser, os, device, clicks)
      SELECT code, to_timestamp(split_part(${k}, E'\t', 2)::bigint * 3600), split_part(${k}, E'\t', 5) = 'b',
             split_part(${k}, E'\t', 3), split_part(${k}, E'\t', 4), split_part(${k}, E'\t', 6), split_part(${k}, E'\t', 7),
             split_part(${k}, E'\t', 8), 1
      FROM counted
      ON CONFLICT (code, hour, bot, referrer, country, browser, os, device) DO UPDATE SET clicks = t.clicks + 1
      RETURNING 1
    )
    SELECT count(*)::int AS counted FROM added`;
  return (row?.counted ?? 0) > 0;
}
