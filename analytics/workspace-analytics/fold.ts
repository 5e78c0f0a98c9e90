import type { Primitive } from "encore.dev/storage/sqldb";
import { urlDb } from "../url-db";

/** Workspaces moved per statement: one transaction each, short enough not to hold up the click flush. */
const workspacesPerBatch = 500;
/**
 * The advisory lock each transaction adding to a workspace's hours holds (the fold of the
 * recent rows, and the rollup, which the fold may add a late click's old hour before), so
 * they take turns.
 */
const workspaceHourlyLock = "workspace_clicks_hourly writers";

/**
 * Moves workspaces' rows from one table into another, a batch of workspaces at a time, each
 * batch one statement in a transaction of its own: the rows leave one table and are added to
 * the other together, so a click is never in both or neither, and a run stopped halfway
 * loses nothing. `pending(after, limit)` lists the next workspaces with rows to move, in
 * order, after `after`; `statement` moves the rows of the workspaces $1 (text[]), with
 * `params` as $2 onwards, and answers one row, `moved`. Resolves with the rows moved.
 */
export async function moveByWorkspace(
  pending: (after: string, limit: number) => Promise<string[]>,
  statement: string,
  ...params: Primitive[]
): Promise<number> {
  let moved = 0;
  for (let after = ""; ; ) {
    const workspaces = await pending(after, workspacesPerBatch);
    if (workspaces.length === 0) return moved;
    await using tx = await urlDb.begin();
    await tx.exec`SELECT pg_advisory_xact_lock(hashtext(${workspaceHourlyLock}))`;
    const row = await tx.rawQueryRow<{ moved: number }>(statement, workspaces, ...params);
    await tx.commit();
    moved += row!.moved;
    after = workspaces.at(-1)!;
  }
}

/**
 * The end of a move statement (its CTEs after `fresh`): adds `fresh`'s rows (workspace_id,
 * dimension, `period`, value, humans, bots) to the workspaces' rows of that period, hours or
 * days. In each workspace's period a dimension keeps the values it has, then the most clicked
 * of those added while it holds fewer than `valuesPerPeriod`; a value past them is counted in
 * 'all' only, which the breakdowns' other is made from.
 */
export function addKeepingTopValues(period: "hour" | "day", valuesPerPeriod: number): string {
  const table = period === "hour" ? "workspace_clicks_hourly" : "workspace_clicks_daily";
  return `
    stored AS (
      SELECT t.workspace_id, t.dimension, t.${period}, t.value
      FROM (SELECT DISTINCT workspace_id, dimension, ${period} FROM fresh WHERE dimension <> 'all') AS g
      JOIN ${table} t ON t.workspace_id = g.workspace_id AND t.dimension = g.dimension AND t.${period} = g.${period}
    ), counts AS (
      SELECT workspace_id, dimension, ${period}, count(*) AS n FROM stored GROUP BY 1, 2, 3
    ), placed AS (
      -- Values stored keep their rows; new ones come in most clicked first while the period has room.
      SELECT f.*, s.value IS NOT NULL AS old,
             COALESCE(c.n, 0) + row_number() OVER (PARTITION BY f.workspace_id, f.dimension, f.${period}, s.value IS NULL ORDER BY f.humans + f.bots DESC, f.value) AS place
      FROM fresh f
      LEFT JOIN stored s ON s.workspace_id = f.workspace_id AND s.dimension = f.dimension AND s.${period} = f.${period} AND s.value = f.value
      LEFT JOIN counts c ON c.workspace_id = f.workspace_id AND c.dimension = f.dimension AND c.${period} = f.${period}
    ), added AS (
      INSERT INTO ${table} AS t (workspace_id, dimension, ${period}, value, humans, bots)
      SELECT workspace_id, dimension, ${period}, value, humans, bots
      FROM placed
      WHERE dimension = 'all' OR old OR place <= ${valuesPerPeriod}
      ON CONFLICT (workspace_id, dimension, ${period}, value) DO UPDATE SET humans = t.humans + EXCLUDED.humans, bots = t.bots + EXCLUDED.bots
    )`;
}
