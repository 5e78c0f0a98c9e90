import { api } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";
import log from "encore.dev/log";
import { removeStaleUrls } from "./stale-urls";

export interface CleanupResult {
  /** How many stale short URLs were deleted. */
  removed: number;
}

/**
 * Deletes short URLs older than 90 days that were never clicked (SPEC 6.3).
 * Internal and without parameters: the cron job below calls it.
 */
export const cleanupStaleUrls = api({ expose: false }, async (): Promise<CleanupResult> => {
  const removed = await removeStaleUrls();
  log.info(`removed ${removed} stale urls`);
  return { removed };
});

// 03:00 UTC, daily.
export const cleanupStaleUrlsJob = new CronJob("cleanup-stale-urls", {
  title: "Remove stale short URLs",
  schedule: "0 3 * * *",
  endpoint: cleanupStaleUrls,
});
