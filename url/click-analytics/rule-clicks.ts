import type { Transaction } from "encore.dev/storage/sqldb";

/** The rule ids one link's hour keeps (the bound docs/app.md documents). */
export const rulesPerHour = 50;

/** The field of a click key after which its rule, if any, follows: code and the seven details before it. */
const fieldsBeforeRule = 8;

/**
 * Adds the clicks of a batch's hourly rows (keys and clicks as click-analytics/store.ts
 * passes them) that a targeting rule sent to link_clicks_rules_hourly, in the same
 * transaction as their hourly rows, so a link-hour's rule clicks never exceed its
 * clicks. Batches without a rule (every plain link's) cost nothing more than a scan of
 * their keys for a ninth field.
 *
 * An hour keeps at most `rulesPerHour` rule ids per link, the first seen (most clicked
 * first within a batch): a link has at most 20 rules, so only ids replaced by many edits
 * within an hour reach the bound, and their later clicks count as no rule's, which the
 * rules breakdown shows as other, so the link's total stays exact.
 */
export async function addRuleClicks(tx: Transaction, keys: readonly string[], clicks: readonly number[]): Promise<void> {
  const ruled: string[] = [];
  const ruledClicks: number[] = [];
  for (let i = 0; i < keys.length; i++) {
    if (hasRule(keys[i])) {
      ruled.push(keys[i]);
      ruledClicks.push(clicks[i]);
    }
  }
  if (ruled.length === 0) return;
  await tx.exec`
    WITH v AS (
      SELECT split_part(k, E'\t', 1) AS code, to_timestamp(split_part(k, E'\t', 2)::bigint * 3600) AS hour,
             split_part(k, E'\t', 5) = 'b' AS bot, split_part(k, E'\t', 9) AS rule, n
      FROM unnest(string_to_array(${ruled.join("\n")}, E'\n'), string_to_array(${ruledClicks.join(",")}, ',')::bigint[]) AS v(k, n)
    ), hours AS (
      SELECT DISTINCT code, hour FROM v
    ), stored AS (
      SELECT DISTINCT hours.code, hours.hour, t.rule
      FROM hours CROSS JOIN LATERAL (SELECT rule FROM link_clicks_rules_hourly WHERE code = hours.code AND hour = hours.hour) AS t
    ), fresh AS (
      -- Rules new to their hour, most clicked first, while the hour has room.
      SELECT v.code, v.hour, v.rule,
             row_number() OVER (PARTITION BY v.code, v.hour ORDER BY sum(v.n) DESC, v.rule)
               + (SELECT count(*) FROM stored s WHERE s.code = v.code AND s.hour = v.hour) AS place
      FROM v
      WHERE NOT EXISTS (SELECT 1 FROM stored s WHERE s.code = v.code AND s.hour = v.hour AND s.rule = v.rule)
      GROUP BY v.code, v.hour, v.rule
    ), kept AS (
      SELECT code, hour, rule FROM stored
      UNION ALL
      SELECT code, hour, rule FROM fresh WHERE place <= ${rulesPerHour}
    )
    INSERT INTO link_clicks_rules_hourly AS t (code, hour, bot, rule, clicks)
    SELECT v.code, v.hour, v.bot, v.rule, sum(v.n)
    FROM v JOIN kept USING (code, hour, rule)
    GROUP BY v.code, v.hour, v.bot, v.rule
    ORDER BY v.code COLLATE "C", v.hour, v.bot, v.rule COLLATE "C"
    ON CONFLICT (code, hour, bot, rule) DO UPDATE SET clicks = t.clicks + EXCLUDED.clicks`;
}

/** Whether a click key has a rule: a ninth field, after its eighth tab. */
function hasRule(key: string): boolean {
  let at = -1;
  for (let n = 0; n < fieldsBeforeRule; n++) {
    at = key.indexOf("\t", at + 1);
    if (at < 0) return false;
  }
  return true;
}
