import { currentRequest } from "encore.dev";
import { Subscription } from "encore.dev/pubsub";
import { urlShortened, type UrlShortened } from "../url/events";
import { db } from "./db";

/**
 * Adds each stored short URL to its day's count, once per event however often it is
 * delivered or published: by its eventId, the same for every publication of one
 * stored URL. An event without one (published before the field existed) is keyed by
 * its message id, which covers redelivery only.
 */
export const trackAnalytics = new Subscription(urlShortened, "track-analytics", {
  handler: async (event: UrlShortened): Promise<void> => {
    const req = currentRequest();
    if (req?.type !== "pubsub-message") throw new Error("track-analytics must run as a subscription handler");
    await countOnce(event.eventId ?? `message:${req.messageId}`, new Date(event.timestamp));
  },
});

/** Rows one day's count is spread over (migrations/4_shard_daily_stats.up.sql). */
const dailyShards = 16;

/**
 * Counts the event of `key` unless it was counted already; true when it counts now.
 * The day is the event's own (UTC), not the day it is handled, so a delivery that
 * arrives late, after midnight, still counts for the day the URL was made.
 */
export async function countOnce(key: string, createdAt: Date): Promise<boolean> {
  await using tx = await db.begin();
  const fresh = await tx.queryRow<{ event_key: string }>`
    INSERT INTO processed_events (event_key) VALUES (${key})
    ON CONFLICT (event_key) DO NOTHING
    RETURNING event_key`;
  if (!fresh) return false; // counted by an earlier delivery or publication
  // A shard at random: concurrent handlers of one day seldom wait for each other's row.
  await tx.exec`
    INSERT INTO daily_stats (date, shard, urls_created)
    VALUES ((${createdAt}::timestamptz AT TIME ZONE 'UTC')::date, ${Math.floor(Math.random() * dailyShards)}, 1)
    ON CONFLICT (date, shard) DO UPDATE SET urls_created = daily_stats.urls_created + 1`;
  await tx.commit();
  return true;
}
