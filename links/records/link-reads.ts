import { db } from "../db";
import type { LinkPosition, LinkSort } from "./cursor";
import { linkColumns, type LinkRow } from "./link-rows";
import { containsPattern, searchCondition } from "./link-search";

/** Which of a user's links GET /links lists: deleted links never are. */
export type LinkStatusFilter = "active" | "inactive" | "all";

export interface LinkListQuery {
  /** A substring of the code, the URL or the title, in any case; undefined: every link. */
  readonly q?: string;
  readonly status: LinkStatusFilter;
  readonly sort: LinkSort;
  /** The rows to read: the page's size plus one, which tells whether another page follows. */
  readonly rows: number;
  /** Where the previous page ended. */
  readonly after?: LinkPosition;
  /** The instant expiry is decided at, the same one the answer's statuses are decided at. */
  readonly now: Date;
  /** Only links with at least `needed` of these tags (tagging/link-tags.ts filterTagIds); undefined: no filter. */
  readonly tags?: { readonly ids: readonly number[]; readonly needed: number };
  /** Only links on this custom domain; undefined: links on any host. */
  readonly domain?: string;
}

/**
 * The rows each sort reads, its order and the condition of its keyset (a link after `$6`,
 * the position): constant SQL, never built from input. Most clicked first reads the links'
 * orders of magnitude of clicks (link_click_order, url migration 21) highest first, and
 * sorts each magnitude's links by their clicks: the same order as clicks alone, as a
 * magnitude grows with the clicks, but one an index gives a magnitude at a time, where
 * clicks, which no index of urls may hold, needed all of a workspace's links sorted.
 */
const orders: Record<LinkSort, { from: string; after: string; orderBy: string; position: (p: LinkPosition) => number[] }> = {
  newest: { from: "urls", after: "urls.id < ($6::int[])[1]", orderBy: "urls.id DESC NULLS LAST", position: (p) => [p.id] },
  clicks: {
    from: "urls JOIN link_click_order o ON o.link_id = urls.id AND o.workspace_id = $1",
    after: "o.magnitude <= click_magnitude(($6::int[])[2]) AND (urls.clicks, urls.id) < (($6::int[])[2], ($6::int[])[1])",
    orderBy: "o.magnitude DESC, urls.clicks DESC, urls.id DESC",
    position: (p) => [p.id, p.clicks ?? 0],
  },
};

/**
 * A page of a workspace's links. They come from urls_workspace_id_idx (newest first: in its
 * order, NULLS LAST, which the primary key cannot give; url migration 18), from
 * link_click_order_workspace_idx (most clicked first), or, for a search the planner expects
 * few matches of, from urls_workspace_search_idx (the workspace's matches only; url migration
 * 19), sorted; the status and the tags (each link's a lookup in link_tags' key) are filters
 * on them. The status is decided on
 * stored clicks: a link whose last clicks are still pending on an instance (at most a flush
 * interval, 100 ms) may be listed as active while its status already says exhausted.
 */
export function listLinkRows(workspaceId: string, query: LinkListQuery): Promise<LinkRow[]> {
  const { from, after, orderBy, position } = orders[query.sort];
  return db.rawQueryAll<LinkRow>(
    `SELECT ${linkColumns} FROM ${from}
     WHERE urls.workspace_id = $1 AND deleted_at IS NULL
       AND ($2::text IS NULL OR ${searchCondition("urls", "$2")})
       AND ($3::text = 'all' OR ($3::text = 'active') = (
         disabled_at IS NULL
         AND (expires_at IS NULL OR expires_at > $4::timestamptz)
         AND (max_clicks IS NULL OR clicks < max_clicks)
         AND (starts_at IS NULL OR starts_at <= $4::timestamptz)))
       AND ($6::int[] IS NULL OR ${after})
       AND ($7::int[] IS NULL OR (SELECT count(*) FROM link_tags lt WHERE lt.link_id = urls.id AND lt.tag_id = ANY($7::int[])) >= $8::int)
       AND ($9::text IS NULL OR domain = $9::text)
     ORDER BY ${orderBy}
     LIMIT $5`,
    workspaceId,
    query.q === undefined ? null : containsPattern(query.q),
    query.status,
    query.now,
    query.rows,
    query.after === undefined ? null : position(query.after),
    query.tags === undefined ? null : [...query.tags.ids],
    query.tags?.needed ?? 0,
    query.domain === undefined ? null : query.domain.trim().toLowerCase(),
  );
}

/** A link's row by its exact code, deleted or not; null when there is none. */
export function linkRow(code: string): Promise<LinkRow | null> {
  return db.rawQueryRow<LinkRow>(`SELECT ${linkColumns} FROM urls WHERE code = $1`, code);
}
