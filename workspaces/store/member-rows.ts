// Members and their roles.
import { db } from "../db";
import type { WorkspaceRole } from "../../access/workspace-roles";

export interface Member {
  userId: string;
  role: WorkspaceRole;
  joinedAt: Date;
}

/** `userId`'s role in the workspace; undefined when not a member (or no such workspace). */
export async function roleOf(workspaceId: string, userId: string): Promise<WorkspaceRole | undefined> {
  const row = await db.queryRow<{ role: WorkspaceRole }>`
    SELECT role FROM members WHERE workspace_id = ${workspaceId}::uuid AND user_id = ${userId}::uuid`;
  return row?.role;
}

/** The members, by role (owner first), then by when they joined. */
export async function membersOf(workspaceId: string): Promise<Member[]> {
  const rows = await db.queryAll<{ user_id: string; role: WorkspaceRole; joined_at: Date }>`
    SELECT user_id, role, joined_at FROM members WHERE workspace_id = ${workspaceId}::uuid
    ORDER BY array_position(ARRAY['owner', 'admin', 'member', 'viewer'], role), joined_at, user_id`;
  return rows.map((r) => ({ userId: r.user_id, role: r.role, joinedAt: r.joined_at }));
}

export async function setRole(workspaceId: string, userId: string, role: WorkspaceRole): Promise<void> {
  await db.exec`UPDATE members SET role = ${role} WHERE workspace_id = ${workspaceId}::uuid AND user_id = ${userId}::uuid`;
}

export async function removeMember(workspaceId: string, userId: string): Promise<void> {
  await db.exec`DELETE FROM members WHERE workspace_id = ${workspaceId}::uuid AND user_id = ${userId}::uuid`;
}

/**
 * Hands the workspace to `to`, a member, in one transaction: the owner becomes an admin.
 * Returns false when `to` is not a member (any more).
 */
export async function transferOwnership(workspaceId: string, from: string, to: string): Promise<boolean> {
  await using tx = await db.begin();
  await tx.exec`UPDATE members SET role = 'admin' WHERE workspace_id = ${workspaceId}::uuid AND user_id = ${from}::uuid AND role = 'owner'`;
  const moved = await tx.queryRow<{ user_id: string }>`
    UPDATE members SET role = 'owner' WHERE workspace_id = ${workspaceId}::uuid AND user_id = ${to}::uuid RETURNING user_id`;
  if (!moved) return false; // rolled back when tx is disposed uncommitted
  await tx.commit();
  return true;
}
