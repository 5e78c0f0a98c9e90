import { api } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";
import log from "encore.dev/log";
import { compactRecentClicks } from "./workspace-analytics/compaction";

export interface CompactionResult {
  /** How many rows of workspace_clicks_recent were folded into workspace_clicks_hourly. */
  moved: number;
}

/**
 * Folds the workspaces' clicks the flush added since the last run into their hourly rows
 * per dimension value (workspace-analytics/compaction.ts), so a read of a workspace's
 * analytics sums few rows. Internal and without parameters: the cron job below calls it.
 */
export const compactWorkspaceClicks = api({ expose: false }, async (): Promise<CompactionResult> => {
  const moved = await compactRecentClicks();
  if (moved > 0) log.info(`folded ${moved} rows of workspaces' recent clicks into their hours`);
  return { moved };
});

// Every 5 minutes: a workspace's rows of combinations stay those of its last minutes.
export const compactWorkspaceClicksJob = new CronJob("compact-workspace-clicks", {
  title: "Fold workspaces' recent clicks into their hourly analytics",
  every: "5m",
  endpoint: compactWorkspaceClicks,
});
