// Who may see and change a workspace's webhooks: its owner and admins manage them, its
// members read them (a viewer neither: a webhook's log shows where the data goes). Asked
// of the workspaces service at every request. API keys are refused: a webhook sends a
// workspace's data to a URL of its choice, which only a signed-in person may decide.
import { APIError } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { workspaces } from "~encore/clients";
import { requireLogin } from "../../access/scopes";
import type { WorkspaceRole } from "../../access/workspace-roles";

export type WebhookAction = "read" | "manage";

const allowed: Readonly<Record<WebhookAction, readonly WorkspaceRole[]>> = {
  read: ["owner", "admin", "member"],
  manage: ["owner", "admin"],
};

/** The caller's account, once allowed `action` in `workspaceId`: 403 for an API key or a role without it, 404 for a workspace they are not in. */
export async function callerAllowed(workspaceId: string, action: WebhookAction): Promise<string> {
  requireLogin("manage webhooks");
  const userID = getAuthData()!.userID;
  const role = workspaceId === userID ? "owner" : (await workspaces.roleIn({ workspaceId, userId: userID })).role;
  if (role === undefined) throw APIError.notFound("workspace not found");
  if (!allowed[action].includes(role)) {
    throw APIError.permissionDenied(`a workspace ${role} cannot ${action === "read" ? "see" : "change"} its webhooks`);
  }
  return userID;
}
