import { api } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";
import log from "encore.dev/log";
import { removeStaleUrls } from "./stale-urls";

export interface CleanupResult {
  /** How many stale short URLs were deleted. */
  removed: number;
  /** How many were newly found stale and marked, for a later run to delete if still unclicked. */
  marked: number;
}

/**
 * Deletes short URLs older than 90 days that were never clicked (SPEC 6.3), in
 * two phases so that no instance's unwritten clicks are lost: a run marks the
 * stale links it finds, and a run at least 12 hours later (the next day's)
 * deletes those still never clicked; a click in between keeps the link for good.
 * So a stale link goes within one more daily run after it becomes stale. See
 * removeStaleUrls. Internal and without parameters: the cron job below calls it.
 */
export const cleanupStaleUrls = api({ expose: false }, async (): Promise<CleanupResult> => {
  const { removed, marked } = await removeStaleUrls();
  log.info(`removed ${removed} stale urls`, { marked });
  return { removed, marked };
});

// 03:00 UTC, daily.
export const cleanupStaleUrlsJob = new CronJob("cleanup-stale-urls", {
  title: "Remove stale short URLs",
  schedule: "0 3 * * *",
  endpoint: cleanupStaleUrls,
});
