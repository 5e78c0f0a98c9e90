// What each role in a workspace may do: one table, read by the workspaces service for its
// own endpoints and by every service whose records belong to a workspace (links, tags),
// so that a role means the same everywhere. docs/app.md shows the same table.
//
// Roles, from most to least: the owner (one per workspace), admins, members, viewers.

export type WorkspaceRole = "owner" | "admin" | "member" | "viewer";

/** Every role, most powerful first. */
export const workspaceRoles: readonly WorkspaceRole[] = Object.freeze(["owner", "admin", "member", "viewer"]);

/** What a member may do in a workspace. */
export type WorkspaceAction =
  /** Read its links, tags and their analytics. */
  | "read"
  /** Create, change and delete its links and tags. */
  | "write"
  /** Rename the workspace. */
  | "rename"
  /** Invite people, change their roles, remove them (within manageableRoles). */
  | "manage-members"
  /** Delete the workspace, hand its ownership to another member. */
  | "own";

const allowed: Readonly<Record<WorkspaceAction, readonly WorkspaceRole[]>> = {
  read: ["owner", "admin", "member", "viewer"],
  write: ["owner", "admin", "member"],
  rename: ["owner", "admin"],
  "manage-members": ["owner", "admin"],
  own: ["owner"],
};

export function mayDo(role: WorkspaceRole, action: WorkspaceAction): boolean {
  return allowed[action].includes(role);
}

/**
 * The roles whose holders `role` may invite, promote or demote to, and remove: an owner
 * every role but owner (ownership changes hands only by a transfer), an admin members and
 * viewers, so that admins cannot remove each other or make more of themselves.
 */
export function manageableRoles(role: WorkspaceRole): readonly WorkspaceRole[] {
  if (role === "owner") return ["admin", "member", "viewer"];
  if (role === "admin") return ["member", "viewer"];
  return [];
}

export function isWorkspaceRole(value: string): value is WorkspaceRole {
  return (workspaceRoles as readonly string[]).includes(value);
}

/** A record that may belong to a workspace: a link. */
export interface WorkspaceRecord {
  /** Null: an anonymous record, nobody's. */
  readonly workspaceId: string | null;
  readonly createdBy: string | null;
}

/** Why a caller may not act on a record, or null when they may. */
export type RecordRefusal = "not-found" | "another-account" | "role" | null;

/**
 * Whether `userID`, whose role in the record's workspace is `role` (undefined: not a
 * member), may do `action` to it. Each service asks the workspaces service for the role
 * and answers the refusal its own way:
 * - in the caller's personal workspace (its id is theirs): allowed;
 * - anonymous, or in another account's personal workspace (whose id is its creator's):
 *   "another-account", as before workspaces (403: GET /:code already tells the code exists);
 * - in a team workspace the caller is not a member of: "not-found", so outsiders learn
 *   nothing of a team's links;
 * - a role that does not allow the action: "role" (403).
 */
export function refusalOf(record: WorkspaceRecord, userID: string, role: WorkspaceRole | undefined, action: WorkspaceAction): RecordRefusal {
  if (record.workspaceId === null) return "another-account";
  if (record.workspaceId === userID) return null;
  if (role === undefined) return record.workspaceId === record.createdBy ? "another-account" : "not-found";
  return mayDo(role, action) ? null : "role";
}
