// Reads the per-link click analytics after the app has stopped, straight from its database,
// to check them against the clicks sent and the links' stored totals.
import { queryStored, type Where } from "./stored-clicks.ts";

/** Every click adds one to a row of each of these. */
const dimensions = ["all", "referrer", "country", "browser", "os", "device"] as const;

interface ClickCounts {
  readonly humans: number;
  readonly bots: number;
}

/**
 * Hourly and daily rows as one, per dimension: an hourly row counts a combination of
 * values, so it adds its clicks to every dimension; a daily row counts one dimension's value.
 */
const allRows = `(SELECT h.code, d.dimension, CASE WHEN h.bot THEN 0 ELSE h.clicks END AS humans, CASE WHEN h.bot THEN h.clicks ELSE 0 END AS bots
                    FROM link_clicks_hourly h CROSS JOIN (VALUES ${dimensions.map((d) => `('${d}')`).join(", ")}) d(dimension)
                  UNION ALL SELECT code, dimension, humans, bots FROM link_clicks_daily)`;

/** One code's humans and bots in each dimension (zero where it has no row). */
async function codeAnalytics(where: Where, code: string): Promise<Record<string, ClickCounts>> {
  const rows = await queryStored<{ dimension: string; humans: string; bots: string }>(
    where,
    `SELECT dimension, sum(humans)::text AS humans, sum(bots)::text AS bots FROM ${allRows} r WHERE code = $1 GROUP BY dimension`,
    [code],
  );
  const found = new Map(rows.map((r) => [r.dimension, { humans: Number(r.humans), bots: Number(r.bots) }]));
  return Object.fromEntries(dimensions.map((d) => [d, found.get(d) ?? { humans: 0, bots: 0 }]));
}

interface Mismatch {
  readonly code: string;
  readonly dimension: string;
  /** humans + bots in the dimension's rows. */
  readonly counted: number;
  /** urls.clicks (0 for a code without a urls row). */
  readonly clicks: number;
}

/**
 * Every (code, dimension) whose humans + bots differ from the link's urls.clicks, over all
 * links, and the number of links checked: the contract's invariant, which holds however
 * many clicks a timed run's deadline cut (each click adds to both in one transaction).
 */
async function analyticsMismatches(where: Where): Promise<{ links: number; mismatches: Mismatch[] }> {
  const dimensionList = dimensions.map((d) => `('${d}')`).join(", ");
  const mismatches = await queryStored<{ code: string; dimension: string; counted: string; clicks: string }>(
    where,
    `WITH sums AS (SELECT code, dimension, sum(humans + bots) AS counted FROM ${allRows} r GROUP BY code, dimension),
          dims(dimension) AS (VALUES ${dimensionList})
     SELECT u.code, d.dimension, coalesce(s.counted, 0)::text AS counted, u.clicks::text AS clicks
       FROM urls u CROSS JOIN dims d LEFT JOIN sums s ON s.code = u.code AND s.dimension = d.dimension
      WHERE coalesce(s.counted, 0) <> u.clicks
     UNION ALL
     SELECT s.code, s.dimension, s.counted::text, '0' FROM sums s
      WHERE s.counted <> 0 AND (s.dimension NOT IN (SELECT dimension FROM dims) OR NOT EXISTS (SELECT 1 FROM urls u WHERE u.code = s.code))
     ORDER BY 1, 2`,
  );
  const [{ n }] = (await queryStored<{ n: number }>(where, "SELECT count(*)::int AS n FROM urls")) as [{ n: number }];
  return {
    links: n,
    mismatches: mismatches.map((m) => ({ code: m.code, dimension: m.dimension, counted: Number(m.counted), clicks: Number(m.clicks) })),
  };
}

/**
 * Judges the stored click analytics: the fixed-count run's code must hold, in every
 * dimension, exactly the humans and bots answered; every link's dimensions must each sum
 * to its stored clicks. Returns whether both hold, and the lines saying so.
 */
export async function checkAnalytics(where: Where, exact: { code: string; answered: number; humans: number }): Promise<{ ok: boolean; lines: string[] }> {
  const counts = await codeAnalytics(where, exact.code);
  const bots = exact.answered - exact.humans;
  const exactOk = dimensions.every((d) => counts[d]!.humans === exact.humans && counts[d]!.bots === bots);
  const each = dimensions.map((d) => `${d} ${counts[d]!.humans}+${counts[d]!.bots}`).join(", ");
  const { links: checked, mismatches } = await analyticsMismatches(where);
  const shown = mismatches.slice(0, 5).map((m) => `${m.code} ${m.dimension}: ${m.counted} counted, ${m.clicks} clicks`);
  return {
    ok: exactOk && mismatches.length === 0,
    lines: [
      `click analytics, fixed-count run: ${exact.humans} humans + ${bots} bots answered 200; stored humans+bots per dimension: ${each} -> ${exactOk ? "equal" : "MISMATCH"}`,
      `click analytics, every link: humans+bots of each dimension equal to its stored clicks, ${checked} links -> ` +
        (mismatches.length === 0 ? "consistent" : `MISMATCH in ${mismatches.length} (${shown.join("; ")}${mismatches.length > 5 ? "; ..." : ""})`),
    ],
  };
}
