import { urlDb } from "../url-db";
import { hourlyRetentionDays } from "../click-reads/range";
import { addKeepingTopValues, moveByWorkspace } from "./fold";

/** In a rolled-up day, a workspace keeps this many values per dimension (the most clicked); the rest count in 'all' only. */
export const valuesPerDay = 50;

/**
 * Moves workspaces' hourly rows older than the hourly retention (35 days, whole UTC days)
 * into daily rows, a batch of workspaces per statement and transaction (fold.ts), as the
 * links' rollup does (link-analytics/rollup.ts). A day keeps, per dimension, the values it
 * already has and then the most clicked of those moved, up to `valuesPerDay`. Resolves with
 * the hourly rows moved.
 */
export async function rollUpWorkspaceClicks(now = new Date()): Promise<number> {
  const cutoff = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - hourlyRetentionDays));
  return moveByWorkspace(
    async (after, limit) =>
      (
        await urlDb.queryAll<{ workspace_id: string }>`
          SELECT DISTINCT workspace_id FROM workspace_clicks_hourly
          WHERE workspace_id > ${after} AND dimension = 'all' AND hour < ${cutoff}
          ORDER BY workspace_id LIMIT ${limit}`
      ).map((r) => r.workspace_id),
    `WITH moved AS (
       DELETE FROM workspace_clicks_hourly WHERE workspace_id = ANY($1::text[]) AND hour < $2 RETURNING *
     ), fresh AS (
       SELECT workspace_id, dimension, (hour AT TIME ZONE 'UTC')::date AS day, value, sum(humans) AS humans, sum(bots) AS bots
       FROM moved
       GROUP BY 1, 2, 3, 4
     ), ${addKeepingTopValues("day", valuesPerDay)}
     SELECT count(*)::int AS moved FROM moved`,
    cutoff,
  );
}
