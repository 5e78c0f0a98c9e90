// Who may see and change a workspace's domains: any member sees them, its owner and admins
// add, check, change and remove them (a domain speaks for the whole workspace); the owner
// of a personal workspace is its owner. Asked of the workspaces service at every request.
import { APIError } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { requireKeyWorkspace, requireScope } from "../../access/scopes";
import { mayDo, type WorkspaceRole } from "../../access/workspace-roles";
import { roleIn } from "../records/workspace-access";

export type DomainAction = "read" | "manage";

const managers: readonly WorkspaceRole[] = ["owner", "admin"];

/** The caller's account, once allowed `action` in `workspaceId`: 404 for a workspace they are not in, 403 for a role without it. */
export async function callerAllowed(workspaceId: string, action: DomainAction): Promise<string> {
  requireScope(action === "read" ? "links:read" : "links:write");
  const userID = getAuthData()!.userID;
  const role = await roleIn(workspaceId, userID);
  if (role === undefined) throw APIError.notFound("workspace not found");
  if (action === "read" ? !mayDo(role, "read") : !managers.includes(role)) {
    throw APIError.permissionDenied(`a workspace ${role} cannot change its domains`);
  }
  requireKeyWorkspace(workspaceId);
  return userID;
}
