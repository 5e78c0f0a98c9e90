import { urlDb } from "../url-db";
import { hourlyRetentionDays } from "../click-reads/range";
import { workspaceHourlyLock } from "./compaction";

/** In a rolled-up day, a workspace keeps this many values per dimension (the most clicked); the rest count in 'all' only. */
export const valuesPerDay = 50;
/** Workspaces moved per statement, one transaction each. */
const workspacesPerBatch = 500;

/**
 * Moves workspaces' hourly rows older than the hourly retention (35 days, whole UTC days)
 * into daily rows, a batch of workspaces at a time, each batch one statement (the rows leave
 * one table and are added to the other in the same transaction), as the links' rollup does
 * (link-analytics/rollup.ts). A day keeps, per dimension, the values it already has and then
 * the most clicked of those moved, up to `valuesPerDay`. Resolves with the hourly rows moved.
 */
export async function rollUpWorkspaceClicks(now = new Date()): Promise<number> {
  const cutoff = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - hourlyRetentionDays));
  let moved = 0;
  let after = "";
  for (;;) {
    const batch = await urlDb.queryAll<{ workspace_id: string }>`
      SELECT DISTINCT workspace_id FROM workspace_clicks_hourly
      WHERE workspace_id > ${after} AND dimension = 'all' AND hour < ${cutoff}
      ORDER BY workspace_id LIMIT ${workspacesPerBatch}`;
    if (batch.length === 0) return moved;
    const workspaces = batch.map((r) => r.workspace_id);
    await using tx = await urlDb.begin();
    // The compaction adds to hourly rows too (a late click's old hour): one of the two at a time.
    await tx.exec`SELECT pg_advisory_xact_lock(hashtext(${workspaceHourlyLock}))`;
    const row = await tx.queryRow<{ moved: number }>`
      WITH moved AS (
        DELETE FROM workspace_clicks_hourly WHERE workspace_id = ANY(${workspaces}::text[]) AND hour < ${cutoff} RETURNING *
      ), fresh AS (
        SELECT workspace_id, dimension, (hour AT TIME ZONE 'UTC')::date AS day, value, sum(humans) AS humans, sum(bots) AS bots
        FROM moved
        GROUP BY 1, 2, 3, 4
      ), stored AS (
        SELECT d.workspace_id, d.dimension, d.day, d.value
        FROM (SELECT DISTINCT workspace_id, dimension, day FROM fresh WHERE dimension <> 'all') AS g
        JOIN workspace_clicks_daily d ON d.workspace_id = g.workspace_id AND d.dimension = g.dimension AND d.day = g.day
      ), counts AS (
        SELECT workspace_id, dimension, day, count(*) AS n FROM stored GROUP BY 1, 2, 3
      ), placed AS (
        SELECT f.*, s.value IS NOT NULL AS old,
               COALESCE(c.n, 0) + row_number() OVER (PARTITION BY f.workspace_id, f.dimension, f.day, s.value IS NULL ORDER BY f.humans + f.bots DESC, f.value) AS place
        FROM fresh f
        LEFT JOIN stored s ON s.workspace_id = f.workspace_id AND s.dimension = f.dimension AND s.day = f.day AND s.value = f.value
        LEFT JOIN counts c ON c.workspace_id = f.workspace_id AND c.dimension = f.dimension AND c.day = f.day
      ), added AS (
        INSERT INTO workspace_clicks_daily AS t (workspace_id, dimension, day, value, humans, bots)
        SELECT workspace_id, dimension, day, value, humans, bots
        FROM placed
        WHERE dimension = 'all' OR old OR place <= ${valuesPerDay}
        ON CONFLICT (workspace_id, dimension, day, value) DO UPDATE SET humans = t.humans + EXCLUDED.humans, bots = t.bots + EXCLUDED.bots
      )
      SELECT count(*)::int AS moved FROM moved`;
    await tx.commit();
    moved += row!.moved;
    after = workspaces.at(-1)!;
  }
}
