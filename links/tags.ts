import { api } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { getAuthData } from "~encore/auth";
import { requireScope } from "../access/scopes";
import { workspaceAllowing } from "./records/workspace-access";
import { checkTagName } from "./tagging/names";
import { createTag, deleteTag, renameTag, tagOf, tagsOf, type Tag } from "./tagging/tag-rows";

// A workspace's tags: any member lists them, its owner, admins and members create, rename
// and delete them (access/workspace-roles.ts). A workspace the caller is not in is 404. A
// personal workspace's id is its account's id. Tags are put on links by POST /shorten,
// POST /links/bulk, PATCH /links/:code and POST /links/tags.

interface WorkspaceParams {
  /** The workspace's id. */
  id: string;
}

interface TagParams extends WorkspaceParams {
  tagId: number;
}

interface TagName {
  /** 1 to 50 characters once trimmed, no comma; unique in the workspace in any case. */
  name: string & MaxLen<200>;
}

export interface TagList {
  /** By name, in any case. */
  tags: Tag[];
}

/** The workspace's tags, each with its number of links (deleted links not counted). Read-only. */
export const listTags = api(
  { expose: true, auth: true, method: "GET", path: "/workspaces/:id/tags" },
  async ({ id }: WorkspaceParams): Promise<TagList> => {
    requireScope("links:read");
    await workspaceAllowing(id, getAuthData()!.userID, "read");
    return { tags: await tagsOf(id) };
  },
);

/** Creates a tag without links; 409 when the workspace has one by the name in any case. Publishes nothing. */
export const createWorkspaceTag = api(
  { expose: true, auth: true, method: "POST", path: "/workspaces/:id/tags" },
  async ({ id, name }: WorkspaceParams & TagName): Promise<Tag> => {
    requireScope("links:write");
    const checked = checkTagName(name);
    await workspaceAllowing(id, getAuthData()!.userID, "write");
    return createTag(id, checked);
  },
);

/** Renames a tag: its links keep it under the new name. 409 when another tag has the name in any case. Publishes nothing. */
export const renameWorkspaceTag = api(
  { expose: true, auth: true, method: "PATCH", path: "/workspaces/:id/tags/:tagId" },
  async ({ id, tagId, name }: TagParams & TagName): Promise<Tag> => {
    requireScope("links:write");
    const checked = checkTagName(name);
    await workspaceAllowing(id, getAuthData()!.userID, "write");
    await renameTag(id, tagId, checked);
    return tagOf(id, tagId);
  },
);

/** Deletes a tag, taking it off every link that had it. Publishes nothing. */
export const deleteWorkspaceTag = api(
  { expose: true, auth: true, method: "DELETE", path: "/workspaces/:id/tags/:tagId" },
  async ({ id, tagId }: TagParams): Promise<void> => {
    requireScope("links:write");
    await workspaceAllowing(id, getAuthData()!.userID, "write");
    await deleteTag(id, tagId);
  },
);
