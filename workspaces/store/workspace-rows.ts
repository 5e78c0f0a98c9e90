// The workspaces and members tables: every query of them, in one place.
import { db } from "../db";
import type { WorkspaceRole } from "../../access/workspace-roles";

/** A workspace as one of its members sees it. */
export interface Workspace {
  id: string;
  name: string;
  /** The account's own workspace: its id is the account's, and it has no other member. */
  personal: boolean;
  /** The caller's role in it. */
  role: WorkspaceRole;
  createdAt: Date;
}

interface WorkspaceRow {
  id: string;
  name: string;
  personal: boolean;
  role: WorkspaceRole;
  created_at: Date;
}

const workspaceOf = (r: WorkspaceRow): Workspace => ({ id: r.id, name: r.name, personal: r.personal, role: r.role, createdAt: r.created_at });

/** The name a personal workspace starts with; its owner may rename it. */
export const personalName = "Personal";

/**
 * Makes `userId`'s personal workspace if it does not exist yet: made on first use rather
 * than at sign-up, so accounts from before workspaces have one too, with nothing to migrate.
 */
export async function ensurePersonal(userId: string): Promise<void> {
  await using tx = await db.begin();
  const made = await tx.queryRow<{ id: string }>`
    INSERT INTO workspaces (id, name, personal) VALUES (${userId}::uuid, ${personalName}, true)
    ON CONFLICT (id) DO NOTHING RETURNING id`;
  if (made) await tx.exec`INSERT INTO members (workspace_id, user_id, role) VALUES (${userId}::uuid, ${userId}::uuid, 'owner')`;
  await tx.commit();
}

export async function createTeam(id: string, ownerId: string, name: string): Promise<Workspace> {
  await using tx = await db.begin();
  const row = await tx.queryRow<Omit<WorkspaceRow, "role">>`
    INSERT INTO workspaces (id, name) VALUES (${id}::uuid, ${name}) RETURNING id, name, personal, created_at`;
  await tx.exec`INSERT INTO members (workspace_id, user_id, role) VALUES (${id}::uuid, ${ownerId}::uuid, 'owner')`;
  await tx.commit();
  return workspaceOf({ ...row!, role: "owner" });
}

/** `userId`'s workspaces, the personal one first, then by creation. */
export async function workspacesOf(userId: string): Promise<Workspace[]> {
  const rows = await db.queryAll<WorkspaceRow>`
    SELECT w.id, w.name, w.personal, m.role, w.created_at
    FROM members m JOIN workspaces w ON w.id = m.workspace_id
    WHERE m.user_id = ${userId}::uuid
    ORDER BY w.personal DESC, w.created_at, w.id`;
  return rows.map(workspaceOf);
}

/** The workspace as `userId` sees it; undefined when it does not exist or `userId` is not a member. */
export async function workspaceFor(workspaceId: string, userId: string): Promise<Workspace | undefined> {
  const row = await db.queryRow<WorkspaceRow>`
    SELECT w.id, w.name, w.personal, m.role, w.created_at
    FROM members m JOIN workspaces w ON w.id = m.workspace_id
    WHERE m.workspace_id = ${workspaceId}::uuid AND m.user_id = ${userId}::uuid`;
  return row ? workspaceOf(row) : undefined;
}

export async function rename(workspaceId: string, name: string): Promise<void> {
  await db.exec`UPDATE workspaces SET name = ${name} WHERE id = ${workspaceId}::uuid`;
}

/** Deletes a workspace with its members and invitations (ON DELETE CASCADE). */
export async function deleteWorkspace(workspaceId: string): Promise<void> {
  await db.exec`DELETE FROM workspaces WHERE id = ${workspaceId}::uuid`;
}
