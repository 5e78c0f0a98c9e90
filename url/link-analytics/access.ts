import { APIError } from "encore.dev/api";
import type { LinkRow } from "../links/link-rows";

/**
 * Who may read a link's analytics: an anonymous link's are public, as its stats are; an
 * owned link's only its owner's (401 for a caller not signed in, 403 for another
 * account). A deleted or disabled link is 404 to everyone but its owner, as for stats.
 */
export function readableAnalytics(row: LinkRow | null, userID: string | undefined): LinkRow {
  if (row === null) throw APIError.notFound("url not found");
  if (row.created_by === null) {
    if (row.deleted_at !== null || row.disabled_at !== null) throw APIError.notFound("url not found");
    return row;
  }
  if (userID === undefined) throw APIError.unauthenticated("sign in to read this link's analytics: it belongs to an account");
  if (row.created_by !== userID) throw APIError.permissionDenied("this link belongs to another account");
  return row;
}
