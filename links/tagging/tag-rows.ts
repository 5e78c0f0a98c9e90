import { APIError } from "encore.dev/api";
import type { Transaction } from "encore.dev/storage/sqldb";
import { db } from "../db";
import { maxTagsPerWorkspace, tagKey } from "./names";

/** A workspace's tag, as GET /workspaces/:id/tags lists it. */
export interface Tag {
  id: number;
  name: string;
  createdAt: Date;
  /** Its links that are not deleted (deleted ones keep their tags, for their owner and the tag's analytics). */
  links: number;
}

/**
 * Serialises the writes of one workspace's tags (creating, renaming, tagging links in
 * bulk), so that the limits on tags per workspace and per link hold exactly under
 * concurrent requests. Held to the end of `tx`; tag writes are short and rare.
 */
export async function lockWorkspaceTags(tx: Transaction, workspaceId: string): Promise<void> {
  await tx.exec`SELECT pg_advisory_xact_lock(hashtextextended(${`tags:${workspaceId}`}, 0))`;
}

/** The workspace's tags (or the one of `tagId`) with their counts, by name in any case. */
export function tagsOf(workspaceId: string, tagId: number | null = null): Promise<Tag[]> {
  return db.queryAll<Tag>`
    SELECT t.id, t.name, t.created_at AS "createdAt", count(u.id)::int AS links
    FROM tags t
    LEFT JOIN link_tags lt ON lt.tag_id = t.id
    LEFT JOIN urls u ON u.id = lt.link_id AND u.deleted_at IS NULL
    WHERE t.workspace_id = ${workspaceId} AND (${tagId}::int IS NULL OR t.id = ${tagId}::int)
    GROUP BY t.id
    ORDER BY lower(t.name), t.id`;
}

/** One tag of the workspace, with its count; 404 "tag not found" when the workspace has no tag by that id. */
export async function tagOf(workspaceId: string, tagId: number): Promise<Tag> {
  const [tag] = await tagsOf(workspaceId, tagId);
  if (tag === undefined) throw APIError.notFound("tag not found");
  return tag;
}

/**
 * The ids of the workspace's tags named `names` (checked names, in any case), by tagKey,
 * creating those it lacks, in a transaction of its own. 400 failed_precondition when that
 * would take the workspace past its limit of tags, creating none.
 */
export async function ensureTags(workspaceId: string, names: readonly string[]): Promise<Map<string, number>> {
  if (names.length === 0) return new Map();
  await using tx = await db.begin();
  await lockWorkspaceTags(tx, workspaceId);
  const ids = await ensureTagsIn(tx, workspaceId, names);
  await tx.commit();
  return ids;
}

/** As ensureTags, in `tx`, which holds lockWorkspaceTags already. */
export async function ensureTagsIn(tx: Transaction, workspaceId: string, names: readonly string[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  if (names.length === 0) return ids;
  const counts = await tx.queryRow<{ total: number; missing: number }>`
    SELECT (SELECT count(*)::int FROM tags WHERE workspace_id = ${workspaceId}) AS total,
           (SELECT count(*)::int FROM unnest(${names}::text[]) AS n(name)
            WHERE NOT EXISTS (SELECT 1 FROM tags WHERE workspace_id = ${workspaceId} AND lower(name) = lower(n.name))) AS missing`;
  if (counts!.missing > 0 && counts!.total + counts!.missing > maxTagsPerWorkspace) {
    throw APIError.failedPrecondition(`a workspace may have at most ${maxTagsPerWorkspace} tags; it has ${counts!.total}: delete some first`);
  }
  await tx.exec`
    INSERT INTO tags (workspace_id, name) SELECT ${workspaceId}, name FROM unnest(${names}::text[]) AS n(name)
    ON CONFLICT (workspace_id, lower(name)) DO NOTHING`;
  const rows = await tx.queryAll<{ id: number; name: string }>`
    SELECT id, name FROM tags WHERE workspace_id = ${workspaceId} AND lower(name) = ANY(SELECT lower(n) FROM unnest(${names}::text[]) AS n)`;
  for (const r of rows) ids.set(tagKey(r.name), r.id);
  return ids;
}

/** The ids of the workspace's existing tags among `names` (in any case); unknown names have none. */
export async function existingTagIds(tx: Transaction, workspaceId: string, names: readonly string[]): Promise<number[]> {
  if (names.length === 0) return [];
  const rows = await tx.queryAll<{ id: number }>`
    SELECT id FROM tags WHERE workspace_id = ${workspaceId} AND lower(name) = ANY(SELECT lower(n) FROM unnest(${names}::text[]) AS n)`;
  return rows.map((r) => r.id);
}

/** Creates a tag; 409 already_exists when the workspace has one by that name in any case. */
export async function createTag(workspaceId: string, name: string): Promise<Tag> {
  await using tx = await db.begin();
  await lockWorkspaceTags(tx, workspaceId);
  const count = await tx.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM tags WHERE workspace_id = ${workspaceId}`;
  if (count!.n >= maxTagsPerWorkspace) throw APIError.failedPrecondition(`a workspace may have at most ${maxTagsPerWorkspace} tags: delete some first`);
  const row = await tx.queryRow<{ id: number; createdAt: Date }>`
    INSERT INTO tags (workspace_id, name) VALUES (${workspaceId}, ${name})
    ON CONFLICT (workspace_id, lower(name)) DO NOTHING
    RETURNING id, created_at AS "createdAt"`;
  if (row === null) throw APIError.alreadyExists(`the workspace has a tag "${name}" already`);
  await tx.commit();
  return { id: row.id, name, createdAt: row.createdAt, links: 0 };
}

/**
 * Renames a tag (its links keep it); a new case of the same name is a rename too. 409
 * already_exists when another tag of the workspace has the name in any case; 404 when the
 * workspace has no such tag.
 */
export async function renameTag(workspaceId: string, tagId: number, name: string): Promise<void> {
  await using tx = await db.begin();
  await lockWorkspaceTags(tx, workspaceId);
  const clash = await tx.queryRow<{ id: number }>`
    SELECT id FROM tags WHERE workspace_id = ${workspaceId} AND lower(name) = lower(${name}) AND id <> ${tagId}`;
  if (clash !== null) throw APIError.alreadyExists(`the workspace has a tag "${name}" already`);
  const row = await tx.queryRow<{ id: number }>`UPDATE tags SET name = ${name} WHERE id = ${tagId} AND workspace_id = ${workspaceId} RETURNING id`;
  if (row === null) throw APIError.notFound("tag not found");
  await tx.commit();
}

/** Deletes a tag and takes it off every link (the rows of link_tags go with it: ON DELETE CASCADE); 404 when none. */
export async function deleteTag(workspaceId: string, tagId: number): Promise<void> {
  const row = await db.queryRow<{ id: number }>`DELETE FROM tags WHERE id = ${tagId} AND workspace_id = ${workspaceId} RETURNING id`;
  if (row === null) throw APIError.notFound("tag not found");
}
