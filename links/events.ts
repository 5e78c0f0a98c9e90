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

/** What happened to a workspace's link, for its webhooks. */
export type LinkEventType = "link.created" | "link.updated" | "link.deleted" | "link.clicked";

/**
 * One link event, published from the link-events outbox after the change it tells of
 * committed. At least once: a relay that stops between publishing and deleting its row
 * publishes it again with the same `eventId`, by which the webhooks service counts it once.
 */
export interface LinkEvent {
  /** Names the event for ever: the same in every publication of it. */
  eventId: string;
  type: LinkEventType;
  /** The link's workspace; absent for link.clicked, whose data names each code's. */
  workspaceId?: string;
  /**
   * The event's data as JSON text: the link (code, url, workspaceId, title, description,
   * expiresAt, maxClicks, domain and its redirect options, rules and preview:
   * event-outbox/link-event-data.ts), or for link.clicked a list of {code, workspaceId, clicks}.
   */
  data: string;
  /** When the change committed (the outbox row was written). */
  occurredAt: Date;
}

export const linkEvents = new Topic<LinkEvent>("link-events", { deliveryGuarantee: "at-least-once" });
