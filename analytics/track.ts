import { currentRequest } from "encore.dev";
import { Subscription } from "encore.dev/pubsub";
import { urlShortened, type UrlShortened } from "../url/events";
import { db } from "./db";

/** Adds each stored short URL to its day's count, once per message however often it is delivered. */
export const trackAnalytics = new Subscription(urlShortened, "track-analytics", {
  handler: async (event: UrlShortened): Promise<void> => {
    const req = currentRequest();
    if (req?.type !== "pubsub-message") throw new Error("track-analytics must run as a subscription handler");
    await countOnce(req.messageId, new Date(event.timestamp));
  },
});

/**
 * The day is the event's own (UTC), not the day it is handled, so a delivery
 * that arrives late, after midnight, still counts for the day the URL was made.
 */
export async function countOnce(messageId: string, createdAt: Date): Promise<boolean> {
  await using tx = await db.begin();
  const fresh = await tx.queryRow<{ message_id: string }>`
    INSERT INTO processed_messages (message_id) VALUES (${messageId})
    ON CONFLICT (message_id) DO NOTHING
    RETURNING message_id`;
  if (!fresh) return false; // counted by an earlier delivery
  await tx.exec`
    INSERT INTO daily_stats (date, urls_created)
    VALUES ((${createdAt}::timestamptz AT TIME ZONE 'UTC')::date, 1)
    ON CONFLICT (date) DO UPDATE SET urls_created = daily_stats.urls_created + 1`;
  await tx.commit();
  return true;
}
