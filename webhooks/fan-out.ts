import { Subscription } from "encore.dev/pubsub";
import { linkEvents, type LinkEvent } from "../links/events";
import { webhookDeliveries } from "./events";
import { db } from "./db";
import { insertDeliveries, type NewDelivery } from "./records/delivery-rows";

/** One link's clicks in one batch, as link.clicked events carry them. */
interface ClickedCode {
  code: string;
  workspaceId: string;
  clicks: number;
}

/**
 * Turns each link event into one delivery per enabled webhook of its workspace that wants
 * it, and queues them. link.clicked: one event is one write of clicks (every click is in
 * exactly one), split by workspace, so each webhook gets one delivery per batch with its
 * workspace's codes and counts. A repeated event makes no second delivery (the
 * (webhook, event) key, records/delivery-rows.ts).
 */
export const linkEventsToWebhooks = new Subscription(linkEvents, "webhooks-fan-out", {
  handler: async (event: LinkEvent): Promise<void> => {
    const deliveries = await deliveriesOf(event);
    const ids = await insertDeliveries(deliveries);
    await Promise.all(ids.map((deliveryId) => webhookDeliveries.publish({ deliveryId })));
  },
  retryPolicy: { minBackoff: "1s", maxBackoff: "1m" },
});

async function deliveriesOf(event: LinkEvent): Promise<NewDelivery[]> {
  const data: unknown = JSON.parse(event.data);
  const byWorkspace = new Map<string, unknown>();
  if (event.type === "link.clicked") {
    const perWorkspace = new Map<string, { code: string; clicks: number }[]>();
    for (const c of data as ClickedCode[]) {
      const list = perWorkspace.get(c.workspaceId) ?? [];
      list.push({ code: c.code, clicks: c.clicks });
      perWorkspace.set(c.workspaceId, list);
    }
    for (const [workspaceId, clicks] of perWorkspace) {
      byWorkspace.set(workspaceId, { clicks, total: clicks.reduce((sum, c) => sum + c.clicks, 0) });
    }
  } else if (event.workspaceId !== undefined) {
    byWorkspace.set(event.workspaceId, data);
  }
  if (byWorkspace.size === 0) return [];
  const hooks = await db.queryAll<{ id: string; workspace_id: string }>`
    SELECT id, workspace_id FROM webhooks
    WHERE enabled AND ${event.type} = ANY(events) AND workspace_id = ANY(${[...byWorkspace.keys()]}::text[])`;
  return hooks.map((h) => ({
    webhookId: h.id,
    eventId: event.eventId,
    type: event.type,
    occurredAt: new Date(event.occurredAt),
    data: byWorkspace.get(h.workspace_id),
  }));
}
