import log from "encore.dev/log";
import { users } from "~encore/clients";
import { outgoingMail } from "../../mail/events";
import { db } from "../db";

/**
 * Disables the webhook after `failures` failed attempts in a row, unless it is disabled
 * already (by hand, or by an attempt just before), and tells the person who registered
 * it by mail. Enabling it again (PATCH … enabled: true) sets the count back to 0.
 */
export async function disableForFailures(webhookId: string, failures: number, lastError: string): Promise<void> {
  const reason = `disabled after ${failures} failed deliveries in a row; the last: ${lastError}`;
  const row = await db.queryRow<{ url: string; workspace_id: string; created_by: string }>`
    UPDATE webhooks SET enabled = false, disabled_reason = ${reason}, updated_at = now()
    WHERE id = ${webhookId} AND enabled
    RETURNING url, workspace_id, created_by`;
  if (row === null) return;
  log.warn("webhook disabled after failed deliveries", { webhookId, failures });
  const { accounts } = await users.accountEmails({ ids: [row.created_by] });
  const to = accounts[0]?.email;
  if (to === undefined) return; // the account is gone: nobody to tell
  await outgoingMail.publish({
    to,
    kind: "webhook-disabled",
    subject: "A webhook was disabled",
    text:
      `The webhook to ${row.url} (workspace ${row.workspace_id}) was ${reason}.\n\n` +
      "No events are sent to it until it is enabled again on the workspace's Webhooks page.\n",
  });
  log.info("the webhook's owner is told by mail", { webhookId, kind: "webhook-disabled" });
}
