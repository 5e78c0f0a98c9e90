import { db } from "../db";
import { exactClicks } from "./exact-clicks";
import { linkColumns, linkView, toLink, type Link, type LinkRow } from "./link-rows";

/** A link as an export carries it: the owner's view (records/link-rows.ts), with its stored password hash when asked for. */
export interface ExportedLink extends Link {
  /** Only for the workspace's owner and admins: the stored scrypt hash, so an import elsewhere keeps the protection. */
  passwordHash?: string;
}

export interface ExportPage {
  links: ExportedLink[];
  /** The last link's id: the next page starts after it; absent at the end. */
  nextAfter?: number;
}

/**
 * One page of a workspace's links that are not deleted, oldest first by id (keyset paging:
 * links added meanwhile land at the end, none is repeated), with their exact clicks.
 */
export async function exportPage(workspaceId: string, after: number, limit: number, withPasswordHash: boolean): Promise<ExportPage> {
  const rows = await db.rawQueryAll<LinkRow & { password_hash: string | null }>(
    `SELECT ${linkColumns}, CASE WHEN $4 THEN urls.password_hash END AS password_hash
     FROM urls WHERE workspace_id = $1 AND deleted_at IS NULL AND id > $2
     -- NULLS FIRST: urls_workspace_id_idx walked backwards, never the primary key (url migration 18).
     ORDER BY id NULLS FIRST LIMIT $3`,
    workspaceId,
    after,
    limit,
    withPasswordHash,
  );
  // The url service reads the clicks of at most 200 codes at once: the page's in parallel.
  const chunks = Array.from({ length: Math.ceil(rows.length / 200) }, (_, i) => rows.slice(i * 200, i * 200 + 200));
  const clicks = new Map<string, number>();
  for (const counted of await Promise.all(chunks.map(exactClicks))) for (const [code, n] of counted) clicks.set(code, n);
  const view = linkView();
  const links = rows.map((row): ExportedLink => {
    const link: ExportedLink = toLink(row, clicks.get(row.code) ?? row.clicks, view);
    if (row.password_hash !== null) link.passwordHash = row.password_hash;
    return link;
  });
  return rows.length < limit ? { links } : { links, nextAfter: rows[rows.length - 1]!.id };
}
