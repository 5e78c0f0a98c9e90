// Who is calling, and what they may do in the workspace they name: one check for every
// endpoint of the service, so that a workspace's existence is never told to a non-member.
import { APIError } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { requireLogin } from "../../access/scopes";
import { mayDo, type WorkspaceAction, type WorkspaceRole } from "../../access/workspace-roles";
import { roleOf } from "./member-rows";
import { ensurePersonal } from "./workspace-rows";

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` can name a workspace (or a user, or an invitation): a UUID; anything else is not found. */
export const isUuid = (id: string) => uuidShape.test(id);

/**
 * `userId`'s role in `workspaceId`, their personal workspace made on first use; undefined
 * when not a member, no such workspace, or an id that is not a UUID.
 */
export async function roleOfMember(workspaceId: string, userId: string): Promise<WorkspaceRole | undefined> {
  if (!isUuid(workspaceId) || !isUuid(userId)) return undefined;
  if (workspaceId.toLowerCase() === userId.toLowerCase()) await ensurePersonal(userId);
  return roleOf(workspaceId, userId);
}

/**
 * The signed-in account, with a login token: workspaces and their members are managed by
 * the account itself, never by an API key (403). For `auth: true` endpoints.
 */
export function signedInAccount(action: string): string {
  requireLogin(action);
  return getAuthData()!.userID;
}

/**
 * The caller's role in `workspaceId` when it allows `action`. A non-member, and a workspace
 * that does not exist, are both 404, so that outsiders learn nothing; a member whose role
 * does not allow it, 403.
 */
export async function memberAllowedTo(workspaceId: string, userId: string, action: WorkspaceAction): Promise<WorkspaceRole> {
  const role = await roleOfMember(workspaceId, userId);
  if (role === undefined) throw APIError.notFound("workspace not found");
  if (!mayDo(role, action)) throw APIError.permissionDenied(`a workspace ${role} cannot do this`);
  return role;
}
