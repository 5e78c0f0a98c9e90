import { api } from "encore.dev/api";
import log from "encore.dev/log";
import { compactRecentClicks } from "./workspace-analytics/compaction";

export interface CompactionResult {
  /** How many rows of workspace_clicks_recent were folded into workspace_clicks_hourly. */
  moved: number;
}

/**
 * Folds the workspaces' clicks the flush added since the last fold into their hourly rows
 * per dimension value (workspace-analytics/compaction.ts), so a read of a workspace's
 * analytics sums few rows. Internal and without parameters: the url service calls it a few
 * minutes after a flush adds to those rows (url/click-analytics/fold-trigger.ts), and only
 * then, rather than a cron job every few minutes, which would wake an idle app forever.
 */
export const compactWorkspaceClicks = api({ expose: false }, async (): Promise<CompactionResult> => {
  const moved = await compactRecentClicks();
  if (moved > 0) log.info(`folded ${moved} rows of workspaces' recent clicks into their hours`);
  return { moved };
});
