import { randomUUID } from "node:crypto";
import { api, APIError } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { memberAllowedTo, signedInAccount } from "./store/caller";
import { createTeam, deleteWorkspace, ensurePersonal, rename, workspaceFor, workspacesOf, type Workspace } from "./store/workspace-rows";

export interface WorkspaceName {
  /** 1 to 100 characters once trimmed. */
  name: string & MaxLen<200>;
}

export interface WorkspaceList {
  /** The personal workspace first, then team workspaces by creation. */
  workspaces: Workspace[];
}

export interface WorkspaceRef {
  id: string;
}

function cleanName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0 || name.length > 100) throw APIError.invalidArgument("name must be 1 to 100 characters");
  return name;
}

/** Creates a team workspace; the caller is its owner. Login only (an API key: 403). */
export const createWorkspace = api(
  { expose: true, auth: true, method: "POST", path: "/workspaces" },
  async ({ name }: WorkspaceName): Promise<Workspace> => {
    const userId = signedInAccount("create workspaces");
    return createTeam(randomUUID(), userId, cleanName(name));
  },
);

/** The caller's workspaces, each with the caller's role: the personal one is made on first use. */
export const listWorkspaces = api(
  { expose: true, auth: true, method: "GET", path: "/workspaces" },
  async (): Promise<WorkspaceList> => {
    const userId = signedInAccount("list workspaces");
    await ensurePersonal(userId);
    return { workspaces: await workspacesOf(userId) };
  },
);

/** One workspace of the caller's. Not a member, or no such workspace: 404. */
export const getWorkspace = api(
  { expose: true, auth: true, method: "GET", path: "/workspaces/:id" },
  async ({ id }: WorkspaceRef): Promise<Workspace> => {
    const userId = signedInAccount("read workspaces");
    await memberAllowedTo(id, userId, "read");
    return (await workspaceFor(id, userId))!;
  },
);

/** Renames a workspace: its owner or an admin (else 403). */
export const renameWorkspace = api(
  { expose: true, auth: true, method: "PATCH", path: "/workspaces/:id" },
  async ({ id, name }: WorkspaceRef & WorkspaceName): Promise<Workspace> => {
    const userId = signedInAccount("rename workspaces");
    await memberAllowedTo(id, userId, "rename");
    await rename(id, cleanName(name));
    return (await workspaceFor(id, userId))!;
  },
);

/**
 * Deletes a team workspace with its members and invitations: its owner only (else 403). A
 * personal workspace is the account's own and goes only with the account: 400.
 */
export const removeWorkspace = api(
  { expose: true, auth: true, method: "DELETE", path: "/workspaces/:id" },
  async ({ id }: WorkspaceRef): Promise<void> => {
    const userId = signedInAccount("delete workspaces");
    await memberAllowedTo(id, userId, "own");
    if ((await workspaceFor(id, userId))!.personal) throw APIError.failedPrecondition("a personal workspace cannot be deleted");
    await deleteWorkspace(id);
  },
);
