import { Topic } from "encore.dev/pubsub";

/** A delivery to send (or send again): its row holds the webhook and the body. */
export interface DeliveryRequested {
  deliveryId: string;
}

/** Deliveries waiting to be sent; the subscription (deliver.ts) retries a failed one with backoff. */
export const webhookDeliveries = new Topic<DeliveryRequested>("webhook-deliveries", { deliveryGuarantee: "at-least-once" });
