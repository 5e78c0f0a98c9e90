import { ObjectNotFound } from "encore.dev/storage/objects";
import log from "encore.dev/log";
import { linksConfig } from "../links-config";
import { db } from "../db";
import { qrObjectName } from "../../link-rules/qr-images";
import { qrCodes } from "../qr-codes";
import { evictNow } from "./cache-eviction";
import { recordLinkEvent } from "../event-outbox/record";

/**
 * Soft-deletes the link of `workspaceId` unless it is deleted already; resolves false when no row
 * was changed. The row stays (its owner still reads its clicks, and its code stays taken);
 * the code goes into retired_codes in the same transaction, so the random draw never hands
 * it out again, even once the cleanup job removes the row. Setting deleted_at fires the
 * urls eviction trigger: every instance drops the code from its cache at the commit.
 */
export async function retireLink(code: string, workspaceId: string): Promise<boolean> {
  await using tx = await db.begin();
  const row = await tx.queryRow<{ id: number }>`
    UPDATE urls SET deleted_at = now()
    WHERE code = ${code} AND workspace_id = ${workspaceId} AND deleted_at IS NULL
    RETURNING id`;
  if (row === null) return false; // rolled back as the transaction is disposed
  await tx.exec`INSERT INTO retired_codes (code) VALUES (${code}) ON CONFLICT DO NOTHING`;
  await recordLinkEvent(tx, "link.deleted", row.id);
  await tx.commit();
  await evictNow(code); // at once here; the notification reaches the other instances (see link-changes.ts)
  return true;
}

/**
 * Removes a deleted link's QR image, when QR codes are on. After the commit, so an image is
 * never gone while its link still stands; a failure is logged, not answered: the link is
 * deleted, and an image left behind shows only a short link that answers 404.
 */
export async function removeQrImage(code: string): Promise<void> {
  if (!linksConfig.qrCodes) return;
  try {
    await qrCodes.remove(qrObjectName(code));
  } catch (err) {
    if (err instanceof ObjectNotFound) return;
    log.warn(err, "removing a deleted link's QR code failed", { code });
  }
}
