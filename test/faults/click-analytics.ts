// What a fault case's clicks left in the per-link analytics, checked against the clicks the
// clients saw answered (their tally, split into people's and bots') and the links' urls.clicks.
import { expect } from "vitest";
import type { Tally } from "./load.ts";
import { queryDatabase } from "./query.ts";

/** Every click adds one to a row of each. */
const dimensions = ["all", "referrer", "country", "browser", "os", "device"] as const;

interface Split {
  humans: number;
  bots: number;
}

/** Per code: urls.clicks and each dimension's humans and bots over hourly and daily rows. */
async function storedAnalytics(serverUrl: string, database: string): Promise<Map<string, { clicks: number; dimensions: Map<string, Split> }>> {
  const urls = await queryDatabase<{ code: string; clicks: number }>(serverUrl, database, "SELECT code, clicks FROM urls");
  const sums = await queryDatabase<{ code: string; dimension: string; humans: number; bots: number }>(
    serverUrl,
    database,
    // An hourly row counts one combination of values, so its clicks count in every
    // dimension; a daily row counts one dimension's value.
    `SELECT code, dimension, sum(humans)::int AS humans, sum(bots)::int AS bots
       FROM (SELECT h.code, d.dimension, CASE WHEN h.bot THEN 0 ELSE h.clicks END AS humans, CASE WHEN h.bot THEN h.clicks ELSE 0 END AS bots
               FROM link_clicks_hourly h CROSS JOIN unnest($1::text[]) AS d(dimension)
             UNION ALL SELECT code, dimension, humans, bots FROM link_clicks_daily) r
      GROUP BY code, dimension`,
    [dimensions],
  );
  const byCode = new Map(urls.map((r) => [r.code, { clicks: r.clicks, dimensions: new Map<string, Split>() }]));
  for (const s of sums) {
    // A code without a urls row shows with clicks -1: counted clicks for no link.
    const entry = byCode.get(s.code) ?? { clicks: -1, dimensions: new Map<string, Split>() };
    entry.dimensions.set(s.dimension, { humans: s.humans, bots: s.bots });
    byCode.set(s.code, entry);
  }
  return byCode;
}

/**
 * Per workspace with links, its own analytics' clicks (url migration 20: the flush's recent
 * rows, the hours' and the days' 'all' rows) and its links' (their hourly and daily rows),
 * humans and bots apart. Both are written in the same transaction, so they must be equal
 * whatever a fault cut short.
 */
async function workspaceTotals(serverUrl: string, database: string) {
  return queryDatabase<{ workspace_id: string; own: Split; links: Split }>(
    serverUrl,
    database,
    `WITH own AS (
       SELECT workspace_id, sum(humans)::int AS humans, sum(bots)::int AS bots
       FROM (SELECT workspace_id, CASE WHEN bot THEN 0 ELSE clicks END AS humans, CASE WHEN bot THEN clicks ELSE 0 END AS bots FROM workspace_clicks_recent
             UNION ALL SELECT workspace_id, humans, bots FROM workspace_clicks_hourly WHERE dimension = 'all'
             UNION ALL SELECT workspace_id, humans, bots FROM workspace_clicks_daily WHERE dimension = 'all') r
       GROUP BY workspace_id
     ), links AS (
       SELECT u.workspace_id, sum(r.humans)::int AS humans, sum(r.bots)::int AS bots
       FROM (SELECT code, CASE WHEN bot THEN 0 ELSE clicks END AS humans, CASE WHEN bot THEN clicks ELSE 0 END AS bots FROM link_clicks_hourly
             UNION ALL SELECT code, humans, bots FROM link_clicks_daily WHERE dimension = 'all') r
       JOIN urls u ON u.code = r.code
       WHERE u.workspace_id IS NOT NULL
       GROUP BY u.workspace_id
     )
     SELECT workspace_id, json_build_object('humans', COALESCE(own.humans, 0), 'bots', COALESCE(own.bots, 0)) AS own,
            json_build_object('humans', COALESCE(links.humans, 0), 'bots', COALESCE(links.bots, 0)) AS links
     FROM own FULL JOIN links USING (workspace_id)`,
  );
}

/**
 * The analytics of every link that was clicked, or has clicks or analytics stored:
 * `exact` (nothing answered may be lost: a clean stop, a database that comes back) wants
 * each dimension to hold exactly the people's and bots' clicks answered, and urls.clicks
 * their sum. Otherwise (a SIGKILL may lose the last clicks) each dimension must still sum to
 * urls.clicks, since a click is added to both in one transaction, and hold no more people's
 * or bots' clicks than were answered.
 */
export async function expectClickAnalytics(serverUrl: string, database: string, tally: Tally, { exact }: { exact: boolean }): Promise<void> {
  // Both kinds were sent, or the split would prove nothing.
  expect(tally.totalHumanClicks).toBeGreaterThan(0);
  expect(tally.totalClicks - tally.totalHumanClicks).toBeGreaterThan(0);

  const stored = await storedAnalytics(serverUrl, database);
  // Workspace links were clicked (load.ts seeds them), and their workspaces' analytics hold exactly their clicks.
  const workspaces = await workspaceTotals(serverUrl, database);
  expect(workspaces.filter((w) => w.links.humans + w.links.bots > 0).length).toBeGreaterThan(0);
  expect(Object.fromEntries(workspaces.map((w) => [w.workspace_id, w.own]))).toEqual(Object.fromEntries(workspaces.map((w) => [w.workspace_id, w.links])));

  const codes = new Set([...tally.clicks.keys(), ...[...stored].filter(([, s]) => s.clicks !== 0 || s.dimensions.size > 0).map(([code]) => code)]);
  const answered = (code: string): Split => {
    const h = tally.humanClicks.get(code) ?? 0;
    return { humans: h, bots: (tally.clicks.get(code) ?? 0) - h };
  };
  const counted = (code: string, dimension: string): Split => stored.get(code)?.dimensions.get(dimension) ?? { humans: 0, bots: 0 };
  const unknownDimensions = [...stored].flatMap(([code, s]) => [...s.dimensions.keys()].filter((d) => !(dimensions as readonly string[]).includes(d)).map((d) => `${code} ${d}`));
  expect(unknownDimensions).toEqual([]);

  if (exact) {
    const actual = Object.fromEntries(
      [...codes].map((code) => [code, { clicks: stored.get(code)?.clicks ?? 0, ...Object.fromEntries(dimensions.map((d) => [d, counted(code, d)])) }]),
    );
    const expected = Object.fromEntries(
      [...codes].map((code) => {
        const split = answered(code);
        return [code, { clicks: split.humans + split.bots, ...Object.fromEntries(dimensions.map((d) => [d, split])) }];
      }),
    );
    expect(actual).toEqual(expected);
    return;
  }
  // Each dimension's sum beside urls.clicks, and whatever holds more than was answered.
  const sums = Object.fromEntries(
    [...codes].map((code) => [code, Object.fromEntries(dimensions.map((d) => [d, counted(code, d).humans + counted(code, d).bots]))]),
  );
  const clicks = Object.fromEntries([...codes].map((code) => [code, Object.fromEntries(dimensions.map((d) => [d, stored.get(code)?.clicks ?? 0]))]));
  expect(sums).toEqual(clicks);
  const overCounted = [...codes].flatMap((code) =>
    dimensions
      .filter((d) => counted(code, d).humans > answered(code).humans || counted(code, d).bots > answered(code).bots)
      .map((d) => `${code} ${d}: ${JSON.stringify(counted(code, d))} counted, ${JSON.stringify(answered(code))} answered`),
  );
  expect(overCounted).toEqual([]);
}
