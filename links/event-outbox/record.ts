import type { Transaction } from "encore.dev/storage/sqldb";
import { linkEventData } from "./link-event-data";

/** The link events a change of one link writes; link.created is written with its row (outbox/url-store.ts). */
export type LinkChangeEvent = "link.updated" | "link.deleted";

/**
 * Writes `type`'s event of the link with row id `linkId` into the outbox, in `tx`: it is
 * committed with the change or not at all. Links of no workspace have no events.
 */
export async function recordLinkEvent(tx: Transaction, type: LinkChangeEvent, linkId: number): Promise<void> {
  await tx.rawExec(
    `INSERT INTO link_event_outbox (type, workspace_id, data)
     SELECT $1, u.workspace_id, ${linkEventData("u")} FROM urls u WHERE u.id = $2 AND u.workspace_id IS NOT NULL`,
    type,
    linkId,
  );
}
