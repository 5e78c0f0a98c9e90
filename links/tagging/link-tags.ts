import { APIError } from "encore.dev/api";
import type { Transaction } from "encore.dev/storage/sqldb";
import { db } from "../db";
import { maxTagsPerLink } from "./names";
import { ensureTagsIn, existingTagIds, lockWorkspaceTags } from "./tag-rows";

// Which links have which tags: set-based statements over many links at once, each guarded
// against a tag deleted meanwhile (its id is skipped rather than failing the statement).

/**
 * The `tags` rows of `tagIds` still there, locked FOR KEY SHARE until the statement's
 * transaction ends: a tag deleted after its id was read is skipped (a locking read in READ
 * COMMITTED re-reads the row, and a deleted one is no longer returned), and one not yet
 * deleted cannot be until the link_tags rows referring to it are committed (its delete
 * then cascades to them). Constant SQL, for the statements below and the link insert.
 */
export const liveTagIds = (param: string) => `(SELECT id FROM tags WHERE id = ANY(${param}::int[]) FOR KEY SHARE)`;

/** Replaces the tags of the link `linkId` with `tagIds`, in `tx`. */
export async function replaceLinkTags(tx: Transaction, linkId: number, tagIds: readonly number[]): Promise<void> {
  await tx.rawExec(`DELETE FROM link_tags WHERE link_id = $1 AND NOT (tag_id = ANY($2::int[]))`, linkId, tagIds);
  await tx.rawExec(
    `INSERT INTO link_tags (link_id, tag_id) SELECT $1, id FROM ${liveTagIds("$2")} AS t ON CONFLICT DO NOTHING`,
    linkId,
    tagIds,
  );
}

export interface BulkTagging {
  /** The workspace the links must be in. */
  readonly workspaceId: string;
  /** Codes of its links, exactly as answered. */
  readonly codes: readonly string[];
  /** Checked tag names to put on; made when the workspace has none by the name. */
  readonly add: readonly string[];
  /** Checked tag names to take off; names no tag has are ignored. */
  readonly remove: readonly string[];
}

export interface BulkTagged {
  /** The links named, all of them in the workspace. */
  updated: number;
  /** Tags put on links that did not have them, counted per link. */
  added: number;
  /** Tags taken off links that had them, counted per link. */
  removed: number;
}

/** How many codes an error message names, at most. */
const namedInErrors = 10;
const listOf = (codes: readonly string[]) => codes.slice(0, namedInErrors).join(", ") + (codes.length > namedInErrors ? ", …" : "");

/**
 * Adds and removes tags on many links in one transaction, all or nothing, in a few
 * statements whatever the number of links: 404 naming the codes that are not links of the
 * workspace (or are deleted); 400 naming the links that would have more than 20 tags; the
 * tags to add are made in the same transaction, so a refused request makes none.
 */
export async function tagLinks({ workspaceId, codes, add, remove }: BulkTagging): Promise<BulkTagged> {
  await using tx = await db.begin();
  await lockWorkspaceTags(tx, workspaceId);
  const links = await tx.queryAll<{ id: number; code: string }>`
    SELECT id, code FROM urls WHERE code = ANY(${codes}::text[]) AND workspace_id = ${workspaceId} AND deleted_at IS NULL`;
  if (links.length < new Set(codes).size) {
    const found = new Set(links.map((l) => l.code));
    const missing = [...new Set(codes)].filter((c) => !found.has(c));
    throw APIError.notFound(`no links of this workspace have the codes ${listOf(missing)}`).withDetails({ codes: missing });
  }
  const ids = links.map((l) => l.id);
  const addIds = [...(await ensureTagsIn(tx, workspaceId, add)).values()];
  const removeIds = await existingTagIds(tx, workspaceId, remove);
  const removed = await tx.queryRow<{ n: number }>`
    WITH gone AS (DELETE FROM link_tags WHERE link_id = ANY(${ids}::int[]) AND tag_id = ANY(${removeIds}::int[]) RETURNING 1)
    SELECT count(*)::int AS n FROM gone`;
  const added = await tx.rawQueryRow<{ n: number }>(
    `WITH put AS (
       INSERT INTO link_tags (link_id, tag_id)
       SELECT l.id, t.id FROM unnest($1::int[]) AS l(id) CROSS JOIN ${liveTagIds("$2")} AS t
       ON CONFLICT DO NOTHING RETURNING 1)
     SELECT count(*)::int AS n FROM put`,
    ids,
    addIds,
  );
  const over = await tx.queryAll<{ code: string }>`
    SELECT u.code FROM link_tags lt JOIN urls u ON u.id = lt.link_id
    WHERE lt.link_id = ANY(${ids}::int[])
    GROUP BY u.code HAVING count(*) > ${maxTagsPerLink}
    ORDER BY u.code LIMIT ${namedInErrors + 1}`;
  if (over.length > 0) {
    throw APIError.invalidArgument(`a link may have at most ${maxTagsPerLink} tags: ${listOf(over.map((r) => r.code))} would have more`);
  }
  await tx.commit();
  return { updated: links.length, added: added!.n, removed: removed!.n };
}

/** The ids of the workspace's tags named in a filter (in any case); names no tag has are left out. */
export async function filterTagIds(workspaceId: string, names: readonly string[]): Promise<number[]> {
  const rows = await db.queryAll<{ id: number }>`
    SELECT id FROM tags WHERE workspace_id = ${workspaceId} AND lower(name) = ANY(SELECT lower(n) FROM unnest(${names}::text[]) AS n)`;
  return rows.map((r) => r.id);
}
