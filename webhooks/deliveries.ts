import { api, APIError } from "encore.dev/api";
import type { Max, Min } from "encore.dev/validate";
import { webhookDeliveries } from "./events";
import { callerAllowed } from "./records/access";
import { deliveriesOf, reopenDelivery, type Delivery } from "./records/delivery-rows";
import { webhookIn } from "./records/webhook-rows";

// A webhook's delivery log (members read it) and "send again" (owner and admins).

interface WebhookParams {
  /** The workspace's id. */
  id: string;
  webhookId: string;
}

interface DeliveryLogRequest extends WebhookParams {
  /** How many of the newest deliveries; 50 unless given. */
  limit?: number & Min<1> & Max<200>;
}

export interface DeliveryLog {
  /** Newest first, each with every attempt (status code, error, duration). */
  deliveries: Delivery[];
}

/** The webhook's newest deliveries with their attempts. */
export const listDeliveries = api(
  { expose: true, auth: true, method: "GET", path: "/workspaces/:id/webhooks/:webhookId/deliveries" },
  async ({ id, webhookId, limit }: DeliveryLogRequest): Promise<DeliveryLog> => {
    await callerAllowed(id, "read");
    await webhookIn(id, webhookId);
    return { deliveries: await deliveriesOf(webhookId, limit ?? 50) };
  },
);

/**
 * Queues the delivery to be sent again, with the same body (a new signature): answered at
 * once, its attempt shows in the log. 409 while the webhook is disabled: enable it first.
 */
export const resendDelivery = api(
  { expose: true, auth: true, method: "POST", path: "/workspaces/:id/webhooks/:webhookId/deliveries/:deliveryId/resend" },
  async ({ id, webhookId, deliveryId }: WebhookParams & { deliveryId: string }): Promise<Delivery> => {
    await callerAllowed(id, "manage");
    const webhook = await webhookIn(id, webhookId);
    if (!webhook.enabled) throw APIError.failedPrecondition("the webhook is disabled: enable it to send again");
    await reopenDelivery(webhookId, deliveryId);
    await webhookDeliveries.publish({ deliveryId });
    return (await deliveriesOf(webhookId, 1, deliveryId))[0];
  },
);
