import { APIError } from "encore.dev/api";
import { requireWorkspaceReader } from "./workspace-reader";
import { urlDb } from "../url-db";

/** A tag as its analytics name it. */
export interface TagRef {
  id: number;
  name: string;
}

/**
 * The tag `tagId` of the workspace, when `userID` may read it (any member): 404 "workspace
 * not found" for a workspace they are not in, 404 "tag not found" for a tag it has not.
 * The role is asked at every read, as for a link's analytics.
 */
export async function readableTag(workspaceId: string, tagId: number, userID: string): Promise<TagRef> {
  await requireWorkspaceReader(workspaceId, userID);
  const tag = await urlDb.queryRow<TagRef>`SELECT id, name FROM tags WHERE id = ${tagId} AND workspace_id = ${workspaceId}`;
  if (tag === null) throw APIError.notFound("tag not found");
  return tag;
}

/**
 * The codes of the tag's links, deleted and disabled ones included: their clicks happened,
 * and their owner still reads them (as GET /me/clicks counts a user's deleted links). From
 * link_tags_tag_id_idx, then each link by its key.
 */
export async function codesOfTag(tagId: number): Promise<string[]> {
  const rows = await urlDb.queryAll<{ code: string }>`
    SELECT u.code FROM link_tags lt JOIN urls u ON u.id = lt.link_id WHERE lt.tag_id = ${tagId}`;
  return rows.map((r) => r.code);
}
