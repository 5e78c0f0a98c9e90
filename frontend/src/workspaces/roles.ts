// The role table the API enforces, read from the same file (access/workspace-roles.ts), so
// the pages offer exactly what a role may do and never a button the API would refuse.
import type { access } from "../client.gen";
export { manageableRoles, mayDo } from "../../../access/workspace-roles";

export type Role = access.WorkspaceRole;

export const roleNames: Record<Role, string> = { owner: "Owner", admin: "Admin", member: "Member", viewer: "Viewer" };

/** What each role may do, in a sentence for the invitation form. */
export const roleMeaning: Record<Role, string> = {
  owner: "everything, and deletes the workspace",
  admin: "manages links, members and invitations",
  member: "creates, changes and deletes links",
  viewer: "reads links and their analytics",
};
