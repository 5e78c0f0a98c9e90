import { randomUUID } from "node:crypto";
import { APIError } from "encore.dev/api";
import { db } from "../db";

export type WebhookEvent = "link.created" | "link.updated" | "link.deleted" | "link.clicked";
export const webhookEvents: readonly WebhookEvent[] = Object.freeze(["link.created", "link.updated", "link.deleted", "link.clicked"]);

/** A webhook as the API shows it: never its secret, which is shown once, when it is made. */
export interface Webhook {
  id: string;
  workspaceId: string;
  url: string;
  events: WebhookEvent[];
  enabled: boolean;
  /** Why it was disabled by the app (failures); absent while enabled or when disabled by hand. */
  disabledReason?: string;
  /** Failed attempts in a row; it is disabled when they reach WEBHOOK_DISABLE_AFTER_FAILURES. */
  consecutiveFailures: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookRow {
  id: string;
  workspace_id: string;
  url: string;
  events: WebhookEvent[];
  secret: string;
  created_by: string;
  enabled: boolean;
  disabled_reason: string | null;
  consecutive_failures: number;
  created_at: Date;
  updated_at: Date;
}

/** At most this many webhooks per workspace: each event is sent to each. */
export const maxWebhooksPerWorkspace = 20;

export function webhookOf(row: WebhookRow): Webhook {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    url: row.url,
    events: row.events,
    enabled: row.enabled,
    ...(row.disabled_reason === null ? {} : { disabledReason: row.disabled_reason }),
    consecutiveFailures: row.consecutive_failures,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Events checked: at least one, each known, each once. */
export function checkEvents(events: readonly string[]): WebhookEvent[] {
  if (events.length === 0) throw APIError.invalidArgument(`events must name at least one of ${webhookEvents.join(", ")}`);
  for (const e of events) {
    if (!(webhookEvents as readonly string[]).includes(e)) {
      throw APIError.invalidArgument(`unknown event "${e}": events are ${webhookEvents.join(", ")}`);
    }
  }
  return webhookEvents.filter((e) => events.includes(e));
}

export async function insertWebhook(fields: { workspaceId: string; url: string; events: WebhookEvent[]; secret: string; createdBy: string }): Promise<WebhookRow> {
  await using tx = await db.begin();
  // One insert at a time per workspace, so two at once cannot pass the limit together.
  await tx.exec`SELECT pg_advisory_xact_lock(hashtext(${fields.workspaceId}))`;
  const count = await tx.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM webhooks WHERE workspace_id = ${fields.workspaceId}`;
  if (count!.n >= maxWebhooksPerWorkspace) {
    throw APIError.resourceExhausted(`a workspace has at most ${maxWebhooksPerWorkspace} webhooks: delete one first`);
  }
  const row = await tx.queryRow<WebhookRow>`
    INSERT INTO webhooks (id, workspace_id, url, events, secret, created_by)
    VALUES (${randomUUID()}, ${fields.workspaceId}, ${fields.url}, ${fields.events}, ${fields.secret}, ${fields.createdBy})
    RETURNING *`;
  await tx.commit();
  return row!;
}

export async function webhooksOf(workspaceId: string): Promise<WebhookRow[]> {
  return db.queryAll<WebhookRow>`SELECT * FROM webhooks WHERE workspace_id = ${workspaceId} ORDER BY created_at, id`;
}

/** The workspace's webhook, or 404. */
export async function webhookIn(workspaceId: string, webhookId: string): Promise<WebhookRow> {
  const row = await db.queryRow<WebhookRow>`SELECT * FROM webhooks WHERE id = ${webhookId} AND workspace_id = ${workspaceId}`;
  if (row === null) throw APIError.notFound("webhook not found");
  return row;
}

export interface WebhookChanges {
  url?: string;
  events?: WebhookEvent[];
  enabled?: boolean;
}

/** Applies the changes; enabling clears the failures and the reason it was disabled for. 404 when gone. */
export async function updateWebhook(workspaceId: string, webhookId: string, changes: WebhookChanges): Promise<WebhookRow> {
  const row = await db.queryRow<WebhookRow>`
    UPDATE webhooks SET
      url = COALESCE(${changes.url ?? null}::text, url),
      events = COALESCE(${changes.events ?? null}::text[], events),
      enabled = COALESCE(${changes.enabled ?? null}::boolean, enabled),
      consecutive_failures = CASE WHEN ${changes.enabled ?? null}::boolean IS NOT NULL THEN 0 ELSE consecutive_failures END,
      disabled_reason = CASE WHEN ${changes.enabled ?? null}::boolean IS NOT NULL THEN NULL ELSE disabled_reason END,
      updated_at = now()
    WHERE id = ${webhookId} AND workspace_id = ${workspaceId}
    RETURNING *`;
  if (row === null) throw APIError.notFound("webhook not found");
  return row;
}

/** Deletes the webhook with its deliveries; 404 when gone. */
export async function deleteWebhook(workspaceId: string, webhookId: string): Promise<void> {
  const row = await db.queryRow`DELETE FROM webhooks WHERE id = ${webhookId} AND workspace_id = ${workspaceId} RETURNING id`;
  if (row === null) throw APIError.notFound("webhook not found");
}
