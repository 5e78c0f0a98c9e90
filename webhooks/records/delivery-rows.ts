import { randomUUID } from "node:crypto";
import { APIError } from "encore.dev/api";
import { db } from "../db";
import type { WebhookEvent } from "./webhook-rows";

/** What each delivery's body is: one event, as the receiver gets it. */
export interface DeliveryBody {
  /** The delivery's id: the same when sent again, so a receiver can drop a repeat. */
  id: string;
  type: WebhookEvent;
  /** When the event happened (its change committed). */
  createdAt: string;
  data: unknown;
}

export interface NewDelivery {
  webhookId: string;
  eventId: string;
  type: WebhookEvent;
  occurredAt: Date;
  data: unknown;
}

/**
 * Makes the deliveries of one event, one per webhook, unless made already (the event was
 * published twice); resolves with the ids of the event's deliveries still pending, new or
 * left by a handler that stopped before publishing them.
 */
export async function insertDeliveries(deliveries: readonly NewDelivery[]): Promise<string[]> {
  if (deliveries.length === 0) return [];
  const ids = deliveries.map(() => randomUUID());
  const bodies = deliveries.map((d, i) =>
    JSON.stringify({ id: ids[i], type: d.type, createdAt: d.occurredAt.toISOString(), data: d.data } satisfies DeliveryBody),
  );
  const rows = await db.queryAll<{ id: string }>`
    WITH made AS (
      INSERT INTO deliveries (id, webhook_id, event_id, type, body)
      SELECT * FROM unnest(${ids}::text[], ${deliveries.map((d) => d.webhookId)}::text[], ${deliveries.map((d) => d.eventId)}::text[],
                           ${deliveries.map((d) => d.type)}::text[], ${bodies}::text[])
      ON CONFLICT (webhook_id, event_id) DO NOTHING
      RETURNING id
    )
    SELECT id FROM made
    UNION
    SELECT d.id FROM deliveries d
    WHERE d.status = 'pending' AND d.attempts = 0
      AND (d.webhook_id, d.event_id) IN (SELECT * FROM unnest(${deliveries.map((d) => d.webhookId)}::text[], ${deliveries.map((d) => d.eventId)}::text[]))`;
  return rows.map((r) => r.id);
}

/** A delivery with what sending it needs. */
export interface DeliveryToSend {
  id: string;
  status: DeliveryStatus;
  body: string;
  webhook_id: string;
  url: string;
  secret: string;
  enabled: boolean;
  type: WebhookEvent;
}

/** pending: not tried yet; delivered: a 2xx came back; failed: the last attempt failed (retries may follow). */
export type DeliveryStatus = "pending" | "delivered" | "failed";

export async function deliveryToSend(deliveryId: string): Promise<DeliveryToSend | null> {
  return db.queryRow<DeliveryToSend>`
    SELECT d.id, d.status, d.body, d.type, w.id AS webhook_id, w.url, w.secret, w.enabled
    FROM deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE d.id = ${deliveryId}`;
}

/** Logs one attempt and its outcome on the delivery; resolves with the webhook's failures in a row after it. */
export async function recordAttempt(
  delivery: DeliveryToSend,
  outcome: { statusCode: number | null; error: string | null; durationMs: number },
): Promise<number> {
  const ok = outcome.error === null;
  await using tx = await db.begin();
  await tx.exec`
    INSERT INTO delivery_attempts (delivery_id, status_code, error, duration_ms)
    VALUES (${delivery.id}, ${outcome.statusCode}, ${outcome.error}, ${outcome.durationMs})`;
  await tx.exec`
    UPDATE deliveries SET attempts = attempts + 1,
      status = CASE WHEN ${ok} THEN 'delivered' ELSE 'failed' END,
      delivered_at = CASE WHEN ${ok} THEN now() ELSE delivered_at END
    WHERE id = ${delivery.id}`;
  const row = await tx.queryRow<{ failures: number }>`
    UPDATE webhooks SET consecutive_failures = CASE WHEN ${ok} THEN 0 ELSE consecutive_failures + 1 END
    WHERE id = ${delivery.webhook_id} RETURNING consecutive_failures AS failures`;
  await tx.commit();
  return row?.failures ?? 0;
}

export interface DeliveryAttempt {
  at: Date;
  /** The receiver's status code; absent when none answered. */
  statusCode?: number;
  /** Why it failed; absent when it succeeded. */
  error?: string;
  durationMs: number;
}

export interface Delivery {
  id: string;
  eventId: string;
  type: WebhookEvent;
  status: DeliveryStatus;
  /** The body sent (and sent again by resend), as JSON text. */
  body: string;
  createdAt: Date;
  deliveredAt?: Date;
  /** Oldest first. */
  attempts: DeliveryAttempt[];
}

interface DeliveryRow {
  id: string;
  event_id: string;
  type: WebhookEvent;
  status: DeliveryStatus;
  body: string;
  created_at: Date;
  delivered_at: Date | null;
  attempts: { at: string; statusCode: number | null; error: string | null; durationMs: number }[];
}

/** The webhook's newest deliveries (at most `limit`), each with its attempts. */
export async function deliveriesOf(webhookId: string, limit: number, deliveryId?: string): Promise<Delivery[]> {
  const rows = await db.queryAll<DeliveryRow>`
    SELECT d.id, d.event_id, d.type, d.status, d.body, d.created_at, d.delivered_at,
      COALESCE((SELECT jsonb_agg(jsonb_build_object('at', a.attempted_at, 'statusCode', a.status_code, 'error', a.error, 'durationMs', a.duration_ms) ORDER BY a.id)
                FROM delivery_attempts a WHERE a.delivery_id = d.id), '[]'::jsonb) AS attempts
    FROM deliveries d
    WHERE d.webhook_id = ${webhookId} AND (${deliveryId ?? null}::text IS NULL OR d.id = ${deliveryId ?? null})
    ORDER BY d.created_at DESC, d.id LIMIT ${limit}`;
  return rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    type: r.type,
    status: r.status,
    body: r.body,
    createdAt: r.created_at,
    ...(r.delivered_at === null ? {} : { deliveredAt: r.delivered_at }),
    attempts: r.attempts.map((a) => ({
      at: new Date(a.at),
      ...(a.statusCode === null ? {} : { statusCode: a.statusCode }),
      ...(a.error === null ? {} : { error: a.error }),
      durationMs: a.durationMs,
    })),
  }));
}

/** Sets the delivery pending again, to be sent again; 404 when it is not the webhook's. */
export async function reopenDelivery(webhookId: string, deliveryId: string): Promise<void> {
  const row = await db.queryRow`
    UPDATE deliveries SET status = 'pending' WHERE id = ${deliveryId} AND webhook_id = ${webhookId} RETURNING id`;
  if (row === null) throw APIError.notFound("delivery not found");
}
