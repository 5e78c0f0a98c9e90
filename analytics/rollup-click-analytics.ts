import { api } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";
import log from "encore.dev/log";
import { rollUpClickAnalytics } from "./link-analytics/rollup";

export interface RollupResult {
  /** How many hourly rows were moved into days. */
  moved: number;
}

/**
 * Rolls click analytics older than 35 days up from hours into days (link-analytics/rollup.ts),
 * so a link's analytics stay bounded per day. Internal and without parameters: the cron
 * job below calls it.
 */
export const rollupClickAnalytics = api({ expose: false }, async (): Promise<RollupResult> => {
  const moved = await rollUpClickAnalytics();
  log.info(`rolled ${moved} hourly click rows up into days`);
  return { moved };
});

// 03:30 UTC, daily: after the stale-URL cleanup.
export const rollupClickAnalyticsJob = new CronJob("rollup-click-analytics", {
  title: "Roll click analytics up from hours into days",
  schedule: "30 3 * * *",
  endpoint: rollupClickAnalytics,
});
