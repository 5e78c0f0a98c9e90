import { api, APIError } from "encore.dev/api";
import { isWorkspaceRole, manageableRoles, type WorkspaceRole } from "../access/workspace-roles";
import { isUuid, memberAllowedTo, signedInAccount } from "./store/caller";
import { membersOf, removeMember, roleOf, setRole, transferOwnership, type Member } from "./store/member-rows";
import { workspaceFor, type Workspace } from "./store/workspace-rows";

export interface MembersRequest {
  id: string;
}

export interface MemberList {
  /** The owner first, then admins, members and viewers, each by when they joined. */
  members: Member[];
}

export interface MemberRef {
  id: string;
  userId: string;
}

export interface RoleChange {
  id: string;
  userId: string;
  /** admin, member or viewer: ownership changes hands by POST /workspaces/:id/transfer. */
  role: string;
}

export interface Transfer {
  id: string;
  /** A member, who becomes the owner; the owner becomes an admin. */
  userId: string;
}

/** The workspace's members and their roles: any member may read them. */
export const listMembers = api(
  { expose: true, auth: true, method: "GET", path: "/workspaces/:id/members" },
  async ({ id }: MembersRequest): Promise<MemberList> => {
    const userId = signedInAccount("read workspace members");
    await memberAllowedTo(id, userId, "read");
    return { members: await membersOf(id) };
  },
);

/**
 * The target's role, when the caller may manage it: an owner manages admins, members and
 * viewers, an admin members and viewers (manageableRoles). Not a member: 404.
 */
async function manageableTarget(workspaceId: string, callerRole: WorkspaceRole, userId: string): Promise<WorkspaceRole> {
  const role = isUuid(userId) ? await roleOf(workspaceId, userId) : undefined;
  if (role === undefined) throw APIError.notFound("no such member in this workspace");
  if (!manageableRoles(callerRole).includes(role)) throw APIError.permissionDenied(`a workspace ${callerRole} cannot change a ${role}`);
  return role;
}

/** Changes a member's role, within what the caller may grant (owner: admin, member, viewer; admin: member, viewer). */
export const changeRole = api(
  { expose: true, auth: true, method: "PATCH", path: "/workspaces/:id/members/:userId" },
  async ({ id, userId: target, role }: RoleChange): Promise<Member> => {
    const userId = signedInAccount("manage workspace members");
    const callerRole = await memberAllowedTo(id, userId, "manage-members");
    if (!isWorkspaceRole(role) || role === "owner") throw APIError.invalidArgument("role must be admin, member or viewer");
    await manageableTarget(id, callerRole, target);
    if (!manageableRoles(callerRole).includes(role)) throw APIError.permissionDenied(`a workspace ${callerRole} cannot make anyone ${role}`);
    await setRole(id, target, role);
    return (await membersOf(id)).find((m) => m.userId === target.toLowerCase())!;
  },
);

/**
 * Removes a member, or (the caller's own id) leaves the workspace. Removing takes what the
 * caller may manage; anyone but the owner may leave (the owner transfers ownership first:
 * 400). Access ends at once: other services ask for the role at every request.
 */
export const removeFromWorkspace = api(
  { expose: true, auth: true, method: "DELETE", path: "/workspaces/:id/members/:userId" },
  async ({ id, userId: target }: MemberRef): Promise<void> => {
    const userId = signedInAccount("manage workspace members");
    if (target.toLowerCase() === userId.toLowerCase()) {
      const role = await memberAllowedTo(id, userId, "read");
      if (role === "owner") throw APIError.failedPrecondition("the owner cannot leave: transfer ownership to another member first");
      await removeMember(id, userId);
      return;
    }
    const callerRole = await memberAllowedTo(id, userId, "manage-members");
    await manageableTarget(id, callerRole, target);
    await removeMember(id, target);
  },
);

/** Hands the workspace to another member: its owner only (else 403). The owner becomes an admin. */
export const transferWorkspace = api(
  { expose: true, auth: true, method: "POST", path: "/workspaces/:id/transfer" },
  async ({ id, userId: target }: Transfer): Promise<Workspace> => {
    const userId = signedInAccount("transfer workspaces");
    await memberAllowedTo(id, userId, "own");
    if (target.toLowerCase() === userId.toLowerCase()) throw APIError.invalidArgument("the workspace is already yours");
    if (!isUuid(target) || !(await transferOwnership(id, userId, target))) throw APIError.notFound("no such member in this workspace");
    return (await workspaceFor(id, userId))!;
  },
);
