import { APIError } from "encore.dev/api";
import type { LinkRow } from "./link-rows";

/**
 * The caller's own link, to read: 404 when no link has the code, 403 permission_denied when
 * it is another's (an anonymous link is nobody's). Telling the two apart gives nothing
 * away: GET /:code already says which codes exist.
 */
export function ownLink(row: LinkRow | null, userID: string): LinkRow {
  if (row === null) throw APIError.notFound("url not found");
  if (row.created_by !== userID) throw APIError.permissionDenied("this link belongs to another account");
  return row;
}

/** The caller's own link, to delete: a deleted link is gone (404); a disabled one may still be deleted. */
export function ownUndeletedLink(row: LinkRow | null, userID: string): LinkRow {
  const own = ownLink(row, userID);
  if (own.deleted_at !== null) throw APIError.notFound("link deleted");
  return own;
}

/** The caller's own link, to change: not deleted, and not disabled: one a moderator disabled stays as the moderator left it. */
export function ownChangeableLink(row: LinkRow | null, userID: string): LinkRow {
  const own = ownUndeletedLink(row, userID);
  if (own.disabled_at !== null) throw APIError.failedPrecondition("link disabled by a moderator");
  return own;
}
