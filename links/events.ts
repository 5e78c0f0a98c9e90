import { Topic } from "encore.dev/pubsub";

/** Published once per stored short URL: its code, long URL and creation time, plus `eventId`. */
export interface UrlShortened {
  code: string;
  originalUrl: string;
  /** When the row was stored. */
  timestamp: Date;
  /**
   * The same for every publication of one stored URL's event: the outbox relay may
   * publish an event again as a new message (a crash between publishing and deleting
   * its outbox row), and consumers count an event once by this key. Absent only
   * from events published before the field existed.
   */
  eventId?: string;
}

export const urlShortened = new Topic<UrlShortened>("url-shortened", { deliveryGuarantee: "at-least-once" });
