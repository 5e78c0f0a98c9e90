import { api } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";
import log from "encore.dev/log";
import { rollUpClickAnalytics } from "./link-analytics/rollup";
import { rollUpWorkspaceClicks } from "./workspace-analytics/rollup";

export interface RollupResult {
  /** How many hourly rows of links were moved into days. */
  moved: number;
  /** How many hourly rows of workspaces were moved into days. */
  workspaceRowsMoved: number;
}

/**
 * Rolls click analytics older than 35 days up from hours into days, the links'
 * (link-analytics/rollup.ts) and the workspaces' (workspace-analytics/rollup.ts), so that
 * they stay bounded per day. Internal and without parameters: the cron job below calls it.
 */
export const rollupClickAnalytics = api({ expose: false }, async (): Promise<RollupResult> => {
  const moved = await rollUpClickAnalytics();
  const workspaceRowsMoved = await rollUpWorkspaceClicks();
  log.info(`rolled ${moved} hourly click rows of links and ${workspaceRowsMoved} of workspaces up into days`);
  return { moved, workspaceRowsMoved };
});

// 03:30 UTC, daily: after the stale-URL cleanup.
export const rollupClickAnalyticsJob = new CronJob("rollup-click-analytics", {
  title: "Roll click analytics up from hours into days",
  schedule: "30 3 * * *",
  endpoint: rollupClickAnalytics,
});
