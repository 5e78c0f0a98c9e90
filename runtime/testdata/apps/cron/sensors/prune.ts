import { api } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";
import { db } from "./db";

/** How long readings are kept. */
export const retentionDays = 30;

export interface PruneResult {
  deleted: number;
}

/** Deletes readings older than the retention period; internal, run only by its cron job. */
export const prune = api({ expose: false }, async (): Promise<PruneResult> => {
  const row = await db.queryRow<PruneResult>`
    WITH gone AS (
      DELETE FROM readings WHERE recorded_at < now() - make_interval(days => ${retentionDays})
      RETURNING 1
    )
    SELECT count(*)::int AS deleted FROM gone`;
  return { deleted: row?.deleted ?? 0 };
});

// 04:00 UTC daily, away from the top of the hour when the rollup runs.
const _ = new CronJob("prune-readings", {
  title: "Delete old sensor readings",
  schedule: "0 4 * * *",
  endpoint: prune,
});
