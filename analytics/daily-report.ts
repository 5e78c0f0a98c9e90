import { api } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";
import log from "encore.dev/log";
import { keyRetentionDays, pruneProcessedEvents } from "./counting/processed-events";
import { dayMs, isoDay, today } from "./dates/utc-days";
import { generateReport, type DailyReport } from "./reports/stored-reports";

/**
 * Reports on the previous UTC day, then drops the keys of events counted long ago
 * (analytics' one daily job does both, so the table of keys stays bounded without a
 * job of its own). Internal and without parameters: the cron job below calls it.
 */
export const dailyReport = api({ expose: false }, async (): Promise<DailyReport> => {
  const report = await generateReport(isoDay(new Date(today().getTime() - dayMs)));
  const pruned = await pruneProcessedEvents();
  log.info(`dropped ${pruned} keys of events counted more than ${keyRetentionDays} days ago`);
  return report;
});

// 08:00 UTC, daily: yesterday is complete, and late url-shortened events have had hours to arrive.
export const dailyReportJob = new CronJob("daily-report", {
  title: "Daily usage report",
  schedule: "0 8 * * *",
  endpoint: dailyReport,
});
