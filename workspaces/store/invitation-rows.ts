// Invitations: a token shown once, kept only as its SHA-256, good for one use until it expires.
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { db } from "../db";
import type { WorkspaceRole } from "../../access/workspace-roles";

/** How long an invitation may wait to be accepted. */
export const invitationLifetimeDays = 7;

export interface Invitation {
  id: string;
  role: WorkspaceRole;
  /** Who made it. */
  createdBy: string;
  createdAt: Date;
  expiresAt: Date;
}

interface InvitationRow {
  id: string;
  role: WorkspaceRole;
  created_by: string;
  created_at: Date;
  expires_at: Date;
}

const invitationOf = (r: InvitationRow): Invitation => ({ id: r.id, role: r.role, createdBy: r.created_by, createdAt: r.created_at, expiresAt: r.expires_at });

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

/** A new invitation and its token (32 random bytes, base64url), which is stored only as its hash. */
export async function createInvitation(workspaceId: string, role: WorkspaceRole, createdBy: string): Promise<Invitation & { token: string }> {
  const token = randomBytes(32).toString("base64url");
  const row = await db.queryRow<InvitationRow>`
    INSERT INTO invitations (id, workspace_id, token_hash, role, created_by, expires_at)
    VALUES (${randomUUID()}::uuid, ${workspaceId}::uuid, ${hashOf(token)}, ${role}, ${createdBy}::uuid,
            now() + ${invitationLifetimeDays}::int * interval '1 day')
    RETURNING id, role, created_by, created_at, expires_at`;
  return { ...invitationOf(row!), token };
}

/** The invitations not used and not expired, newest first. */
export async function pendingInvitations(workspaceId: string): Promise<Invitation[]> {
  const rows = await db.queryAll<InvitationRow>`
    SELECT id, role, created_by, created_at, expires_at FROM invitations
    WHERE workspace_id = ${workspaceId}::uuid AND used_at IS NULL AND expires_at > now()
    ORDER BY created_at DESC, id`;
  return rows.map(invitationOf);
}

/** Deletes an unused invitation of the workspace; false when there is none by that id. */
export async function revokeInvitation(workspaceId: string, id: string): Promise<boolean> {
  const row = await db.queryRow<{ id: string }>`
    DELETE FROM invitations WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid AND used_at IS NULL RETURNING id`;
  return row !== null;
}

export type Acceptance = { workspaceId: string; role: WorkspaceRole } | "unknown" | "already-member";

/**
 * Uses the invitation of `token` for `userId`, in one transaction: it is marked used and
 * the user joins with its role. A used, expired, revoked or unknown token is "unknown",
 * one token for every case; a user who is already a member leaves the invitation unused.
 */
export async function acceptInvitation(token: string, userId: string): Promise<Acceptance> {
  await using tx = await db.begin();
  const invitation = await tx.queryRow<{ id: string; workspace_id: string; role: WorkspaceRole }>`
    SELECT id, workspace_id, role FROM invitations
    WHERE token_hash = ${hashOf(token)} AND used_at IS NULL AND expires_at > now()
    FOR UPDATE`;
  if (!invitation) return "unknown";
  const joined = await tx.queryRow<{ user_id: string }>`
    INSERT INTO members (workspace_id, user_id, role) VALUES (${invitation.workspace_id}::uuid, ${userId}::uuid, ${invitation.role})
    ON CONFLICT (workspace_id, user_id) DO NOTHING RETURNING user_id`;
  if (!joined) return "already-member";
  await tx.exec`UPDATE invitations SET used_by = ${userId}::uuid, used_at = now() WHERE id = ${invitation.id}::uuid`;
  await tx.commit();
  return { workspaceId: invitation.workspace_id, role: invitation.role };
}
