import { api } from "encore.dev/api";
import type { WorkspaceRole } from "../access/workspace-roles";
import { roleOfMember } from "./store/caller";

export interface RoleInRequest {
  workspaceId: string;
  userId: string;
}

export interface RoleInResponse {
  /** The user's role in the workspace; absent when not a member, or no such workspace. */
  role?: WorkspaceRole;
}

/**
 * For services whose records belong to a workspace: the user's role in it, read at every
 * call (no cache), so that a removal holds at once on every instance. A user's own id
 * names their personal workspace, which is made on first use. Internal.
 */
export const roleIn = api(
  { expose: false, method: "GET", path: "/internal/workspaces/:workspaceId/roles/:userId" },
  async ({ workspaceId, userId }: RoleInRequest): Promise<RoleInResponse> => {
    const role = await roleOfMember(workspaceId, userId);
    return role === undefined ? {} : { role };
  },
);
