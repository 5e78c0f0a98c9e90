import { currentRequest } from "encore.dev";
import { Subscription } from "encore.dev/pubsub";
import { urlShortened, type UrlShortened } from "../links/events";
import { countOnce } from "./counting/count-once";

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
