import { APIError } from "encore.dev/api";
import { workspaces } from "~encore/clients";
import { requireKeyWorkspace } from "../../access/scopes";
import { mayDo } from "../../access/workspace-roles";

/**
 * Refuses `userID` reading the workspace's analytics unless they are a member (any role
 * reads): 404 "workspace not found" otherwise, and an API key must be the workspace's. The
 * role is asked at every read, as for a link's analytics.
 */
export async function requireWorkspaceReader(workspaceId: string, userID: string): Promise<void> {
  const role = workspaceId === userID ? "owner" : (await workspaces.roleIn({ workspaceId, userId: userID })).role;
  if (role === undefined || !mayDo(role, "read")) throw APIError.notFound("workspace not found");
  requireKeyWorkspace(workspaceId);
}
