import type { Transaction } from "encore.dev/storage/sqldb";
import { clickKey } from "../click-counting/batches";
import { db } from "../db";
import { hourOf } from "./dimensions";
import { hourlyRows } from "./rows";

/**
 * Adds a batch's clicks (per click key) to their links' hourly analytics rows, inside
 * the transaction that adds them to urls.clicks (click-counting/store.ts), so both are
 * stored exactly once together. One statement for the whole batch.
 */
export async function addClickAnalytics(tx: Transaction, counts: ReadonlyMap<string, number>, stored: ReadonlySet<string>): Promise<void> {
  if (stored.size === 0) return;
  const rows = hourlyRows(counts, stored, hourOf(Date.now()));
  if (rows.codes.length === 0) return;
  const c = rows; // columns, one array each
  await tx.exec`
    INSERT INTO link_clicks_hourly AS t (code, hour, bot, referrer, country, browser, os, device, clicks)
    SELECT v.code, to_timestamp(v.hour * 3600), v.bot, v.referrer, v.country, v.browser, v.os, v.device, v.clicks
    FROM unnest(${c.codes}::text[], ${c.hours}::bigint[], ${c.bots}::boolean[], ${c.referrers}::text[], ${c.countries}::text[],
                ${c.browsers}::text[], ${c.oses}::text[], ${c.devices}::text[], ${c.clicks}::bigint[])
         AS v(code, hour, bot, referrer, country, browser, os, device, clicks)
    ON CONFLICT (code, hour, bot, referrer, country, browser, os, device) DO UPDATE SET clicks = t.clicks + EXCLUDED.clicks`;
}

/**
 * Counts one click of a link with a click budget, in one statement: the click and its
 * analytics row are added only when the budget allows (the UPDATE finds its row),
 * atomically across instances. Resolves false when the budget is spent.
 */
export async function addBudgetedClick(code: string, details: string): Promise<boolean> {
  const r = hourlyRows(new Map([[clickKey(code, details), 1]]), new Set([code]), hourOf(Date.now()));
  const row = await db.queryRow<{ counted: number }>`
    WITH counted AS (
      UPDATE urls SET clicks = clicks + 1
      WHERE code = ${code} AND (max_clicks IS NULL OR clicks < max_clicks)
      RETURNING code
    ), added AS (
      INSERT INTO link_clicks_hourly AS t (code, hour, bot, referrer, country, browser, os, device, clicks)
      SELECT code, to_timestamp(${r.hours[0]}::bigint * 3600), ${r.bots[0]}::boolean, ${r.referrers[0]}, ${r.countries[0]},
             ${r.browsers[0]}, ${r.oses[0]}, ${r.devices[0]}, 1
      FROM counted
      ON CONFLICT (code, hour, bot, referrer, country, browser, os, device) DO UPDATE SET clicks = t.clicks + 1
      RETURNING 1
    )
    SELECT count(*)::int AS counted FROM added`;
  return (row?.counted ?? 0) > 0;
}
