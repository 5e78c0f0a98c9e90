import { api } from "encore.dev/api";
import { CronJob } from "encore.dev/cron";
import log from "encore.dev/log";
import { removeStaleUrls } from "./stale-urls/remove";

export interface CleanupResult {
  /** How many stale short URLs were deleted. */
  removed: number;
}

/**
 * Deletes every short URL with no clicks created more than 90 days ago, in this
 * run, and logs how many (see removeStaleUrls for how clicks other instances hold
 * in memory are stored first). Internal and without parameters: the cron job
 * below calls it.
 *
 * Publishes no event: each deleted row reaches every instance's link cache through
 * the urls table's trigger (NOTIFY on url_cache_evict, link-cache/evictions.ts), and
 * the removed codes' QR images leave the qr-codes bucket.
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
