import type { Transaction } from "encore.dev/storage/sqldb";
import type { HourlyRows } from "./rows";

/**
 * Adds the clicks of a batch's keys whose hourly row already exists straight to that row,
 * and returns the keys left: combinations new to their hour, for the bounded insert
 * (store.ts) to place. Once a link's visitors have been seen in an hour, nearly every
 * click of theirs is such a key, and this one UPDATE by the table's key is all its
 * analytics cost: the bounded insert reads every row of each link-hour, ranks values and
 * combinations and sorts the batch, which measured twice the database's whole work for
 * a uniform batch's urls update, for clicks the bound has nothing to decide about.
 *
 * The result is the bounded insert's on the whole batch: a stored combination's values
 * are stored ones, which that insert keeps whatever their clicks, and they take no place
 * among the new ones; the rows stay where they are, so the new keys are ranked against
 * the same stored values and rows. Run inside the flush's transaction, which holds the
 * keys' urls rows locked (click-counting/store.ts), so no other writer adds a row to
 * these link-hours between this statement and the insert.
 *
 * Keys that differ only by their targeting rule share a row: they are summed before the
 * UPDATE (a statement changes a row once), and each is returned when its row is new.
 */
export async function addToExistingRows(tx: Transaction, keys: readonly string[], clicks: readonly number[]): Promise<HourlyRows> {
  const left = await tx.queryAll<{ k: string; n: string }>`
    WITH v AS (
      SELECT k, n, split_part(k, E'\t', 1) AS code, to_timestamp(split_part(k, E'\t', 2)::bigint * 3600) AS hour,
             split_part(k, E'\t', 5) = 'b' AS bot, split_part(k, E'\t', 3) AS referrer, split_part(k, E'\t', 4) AS country,
             split_part(k, E'\t', 6) AS browser, split_part(k, E'\t', 7) AS os, split_part(k, E'\t', 8) AS device
      FROM unnest(string_to_array(${keys.join("\n")}, E'\n'), string_to_array(${clicks.join(",")}, ',')::bigint[]) AS v(k, n)
    ), batch AS (
      SELECT code, hour, bot, referrer, country, browser, os, device, sum(n) AS n FROM v
      GROUP BY code, hour, bot, referrer, country, browser, os, device
    ), added AS (
      UPDATE link_clicks_hourly AS t SET clicks = t.clicks + batch.n
      FROM batch
      WHERE t.code = batch.code AND t.hour = batch.hour AND t.bot = batch.bot AND t.referrer = batch.referrer
        AND t.country = batch.country AND t.browser = batch.browser AND t.os = batch.os AND t.device = batch.device
      RETURNING t.code, t.hour, t.bot, t.referrer, t.country, t.browser, t.os, t.device
    )
    SELECT v.k, v.n FROM v
    WHERE NOT EXISTS (
      SELECT 1 FROM added a
      WHERE a.code = v.code AND a.hour = v.hour AND a.bot = v.bot AND a.referrer = v.referrer
        AND a.country = v.country AND a.browser = v.browser AND a.os = v.os AND a.device = v.device
    )`;
  return { keys: left.map((r) => r.k), clicks: left.map((r) => Number(r.n)) };
}
