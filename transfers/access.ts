import { APIError } from "encore.dev/api";
import { workspaces } from "~encore/clients";
import { requireKeyWorkspace } from "../access/scopes";
import { mayDo, type WorkspaceAction, type WorkspaceRole } from "../access/workspace-roles";

/**
 * The caller's role in `workspaceId` when it allows `action`, asked of the workspaces
 * service at every request (as the links service asks): 404 "workspace not found" for a
 * workspace they are not in, 403 for a role that does not allow it (a viewer importing) or
 * an API key made for another workspace. A personal workspace's id is its account's.
 */
export async function roleAllowing(workspaceId: string, userID: string, action: WorkspaceAction, what: string): Promise<WorkspaceRole> {
  const role = workspaceId === userID ? "owner" : (await workspaces.roleIn({ workspaceId, userId: userID })).role;
  if (role === undefined) throw APIError.notFound("workspace not found");
  if (!mayDo(role, action)) throw APIError.permissionDenied(`a workspace ${role} cannot ${what}`);
  requireKeyWorkspace(workspaceId);
  return role;
}
