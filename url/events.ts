import { Topic } from "encore.dev/pubsub";

/** Published once per stored short URL (SPEC 6.1). */
export interface UrlShortened {
  code: string;
  originalUrl: string;
  /** When the row was stored. */
  timestamp: Date;
}

export const urlShortened = new Topic<UrlShortened>("url-shortened", { deliveryGuarantee: "at-least-once" });
