import { APIError } from "encore.dev/api";
import type { LinkRow } from "./link-rows";
import { linkFor } from "./workspace-access";

/**
 * A link the caller may read: one of a workspace they belong to (workspace-access.ts). No
 * link by the code, or one of a team workspace they are not in: 404; anonymous or another
 * account's: 403 (GET /:code already says which codes exist).
 */
export function readableLink(row: LinkRow | null, userID: string): Promise<LinkRow> {
  return linkFor(row, userID, "read");
}

/** A link the caller may delete: as readableLink, with a role that writes; a deleted link is gone (404); a disabled one may still be deleted. */
export async function deletableLink(row: LinkRow | null, userID: string): Promise<LinkRow> {
  const link = await linkFor(row, userID, "write");
  if (link.deleted_at !== null) throw APIError.notFound("link deleted");
  return link;
}

/** A link the caller may change: not deleted, and not disabled: one a moderator disabled stays as the moderator left it. */
export async function changeableLink(row: LinkRow | null, userID: string): Promise<LinkRow> {
  const link = await deletableLink(row, userID);
  if (link.disabled_at !== null) throw APIError.failedPrecondition("link disabled by a moderator");
  return link;
}
