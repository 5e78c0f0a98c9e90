import { APIError } from "encore.dev/api";
import { workspaces } from "~encore/clients";
import { requireKeyWorkspace } from "../../access/scopes";
import { refusalOf } from "../../access/workspace-roles";
import { requireLinkPassword, type LinkCaller } from "../../link-access/password-links";
import { urlDb } from "../url-db";

/** What decides who may read a link's analytics. */
export interface AccessRow {
  code: string;
  created_by: string | null;
  workspace_id: string | null;
  password_hash: string | null;
  deleted_at: Date | null;
  disabled_at: Date | null;
}

/** The link's row as access to its analytics needs it, or null when no link has the code. */
export function accessRow(code: string): Promise<AccessRow | null> {
  return urlDb.queryRow<AccessRow>`
    SELECT code, created_by, workspace_id, password_hash, deleted_at, disabled_at FROM urls WHERE code = ${code}`;
}

/**
 * Who may read a link's analytics: an anonymous link's are public, as its stats are, but a
 * password link's only to whoever gives its password (401 otherwise, as GET /:code
 * answers); a link of a workspace only its members' (401 for a caller not signed in, 403
 * for another account's personal link, 404 for a team workspace's the caller is not in),
 * whatever password is given. A deleted or disabled link is 404 to
 * everyone but its owner, as for stats.
 */
export async function readableAnalytics(row: AccessRow | null, caller: LinkCaller): Promise<AccessRow> {
  if (row === null) throw APIError.notFound("url not found");
  if (row.created_by === null) {
    if (row.deleted_at !== null || row.disabled_at !== null) throw APIError.notFound("url not found");
    await requireLinkPassword(row.code, { passwordHash: row.password_hash }, caller);
    return row;
  }
  if (caller.userID === undefined) throw APIError.unauthenticated("sign in to read this link's analytics: it belongs to an account");
  const record = { workspaceId: row.workspace_id ?? row.created_by, createdBy: row.created_by };
  const role =
    record.workspaceId === caller.userID ? "owner" : (await workspaces.roleIn({ workspaceId: record.workspaceId!, userId: caller.userID })).role;
  const refusal = refusalOf(record, caller.userID, role, "read");
  if (refusal === "not-found") throw APIError.notFound("url not found");
  if (refusal !== null) throw APIError.permissionDenied("this link belongs to another account");
  requireKeyWorkspace(record.workspaceId!);
  return row;
}
