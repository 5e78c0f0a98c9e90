import { Counter, CounterGroup, Gauge } from "encore.dev/metrics";

// The url service's own metrics (exported at /metrics with service="url" when the
// runtime's metrics are on; no-ops otherwise). The runtime already counts requests,
// pub/sub deliveries, cron runs and pool use; these cover what only the service knows.

/** Clicks answered and counted in memory, not yet written: sampled after each write of clicks. */
export const clicksPending = new Gauge("url_clicks_pending");

/** Writes of counted clicks, by outcome ("written" or "failed": a failed write keeps its clicks and retries). */
export const clickFlushes = new CounterGroup<{ outcome: "written" | "failed" }>("url_click_flushes");

/**
 * Time spent writing clicks, in microseconds (Encore's counters count whole numbers);
 * divided by url_click_flushes it is the mean write time.
 */
export const clickFlushMicroseconds = new Counter("url_click_flush_microseconds");

/** How long the last write of clicks took, in seconds. */
export const clickFlushLastSeconds = new Gauge("url_click_flush_last_seconds");

/** Answered clicks that could not be stored (their link deleted, or neither written nor kept in the click journal). */
export const clicksLost = new Counter("url_clicks_lost");

/**
 * Lookups of GET /:code (and the password form's POST) refused with 503 and Retry-After
 * because LOOKUP_READS_AT_ONCE reads of uncached links were under way (link-cache/lookup.ts):
 * load shed on purpose, as opposed to the database failing.
 */
export const lookupsShed = new Counter("url_lookups_shed");
