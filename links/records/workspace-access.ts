// Who may do what to a link: the caller's role in the link's workspace, asked of the
// workspaces service at every request (a removed member is refused at once, everywhere),
// by the rules of access/workspace-roles.ts.
import { APIError } from "encore.dev/api";
import { workspaces } from "~encore/clients";
import { keyWorkspace, requireKeyWorkspace } from "../../access/scopes";
import { mayDo, refusalOf, type WorkspaceAction, type WorkspaceRole } from "../../access/workspace-roles";
import type { LinkRow } from "./link-rows";

/** `userID`'s role in `workspaceId`; undefined when not a member. Their own personal workspace needs no question. */
export async function roleIn(workspaceId: string, userID: string): Promise<WorkspaceRole | undefined> {
  if (workspaceId === userID) return "owner";
  return (await workspaces.roleIn({ workspaceId, userId: userID })).role;
}

/**
 * The link, when `userID` may do `action` to it: 404 when no link has the code or it is in
 * a team workspace the caller is not in, 403 when it is anonymous or another account's, or
 * the caller's role does not allow the action.
 */
export async function linkFor(row: LinkRow | null, userID: string, action: WorkspaceAction): Promise<LinkRow> {
  if (row === null) throw APIError.notFound("url not found");
  const record = { workspaceId: row.workspace_id, createdBy: row.created_by };
  const role = row.workspace_id === null ? undefined : await roleIn(row.workspace_id, userID);
  switch (refusalOf(record, userID, role, action)) {
    case "not-found":
      throw APIError.notFound("url not found");
    case "another-account":
      throw APIError.permissionDenied("this link belongs to another account");
    case "role":
      throw APIError.permissionDenied(`a workspace ${role} cannot change its links`);
    default:
      requireKeyWorkspace(row.workspace_id!); // allowed: never anonymous
      return row;
  }
}

/**
 * The workspace new links go into: `workspaceId` when given (the caller must be allowed to
 * write there: 404 for a team workspace they are not in, 403 for a viewer or an API key
 * made for another workspace), else the one the caller's API key acts in, else the caller's
 * personal one; none for an anonymous caller, who may not name one (401).
 */
export async function workspaceForNewLinks(workspaceId: string | undefined, userID: string | undefined): Promise<string | null> {
  if (userID === undefined) {
    if (workspaceId !== undefined) throw APIError.unauthenticated("sign in to create links in a workspace");
    return null;
  }
  const chosen = workspaceId ?? keyWorkspace() ?? userID;
  const role = await roleIn(chosen, userID);
  if (role === undefined) throw APIError.notFound("workspace not found");
  if (!mayDo(role, "write")) throw APIError.permissionDenied(`a workspace ${role} cannot create links`);
  requireKeyWorkspace(chosen);
  return chosen;
}

/**
 * `userID`'s role in `workspaceId` when it allows `action` (tags, the list of links): 404
 * "workspace not found" for a workspace they are not in (or none by that id), 403 for a role
 * that does not allow it (a viewer writing) or an API key made for another workspace.
 */
export async function workspaceAllowing(workspaceId: string, userID: string, action: WorkspaceAction): Promise<WorkspaceRole> {
  const role = await roleIn(workspaceId, userID);
  if (role === undefined) throw APIError.notFound("workspace not found");
  if (!mayDo(role, action)) throw APIError.permissionDenied(`a workspace ${role} cannot change its tags or links`);
  requireKeyWorkspace(workspaceId);
  return role;
}
