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
 * How many of a workspace's newest links (after the cursor) a search in the newest order reads
 * before it turns to the trigram index (searchNewest).
 */
export const searchWalk = 1000;

/**
 * A page of a workspace's links. They come from urls_workspace_id_idx (newest first: in its
 * order, NULLS LAST, which the primary key cannot give; url migration 18) or from
 * link_click_order_workspace_idx (most clicked first); a search reads a bounded stretch of
 * the newest, then the workspace's matches from urls_workspace_search_idx (url migration 19:
 * searchNewest), or, most clicked first, the matches alone. The status and the tags (each
 * link's a lookup in link_tags' key) are filters on them. The status is decided on
 * stored clicks: a link whose last clicks are still pending on an instance (at most a flush
 * interval, 100 ms) may be listed as active while its status already says exhausted.
 */
export function listLinkRows(workspaceId: string, query: LinkListQuery, walk = searchWalk): Promise<LinkRow[]> {
  if (query.q === undefined) return pageRows(workspaceId, query, "all");
  if (query.sort === "newest") return searchNewest(workspaceId, query, walk);
  return pageRows(workspaceId, query, "matches");
}

/**
 * A search's page in the newest order, in two steps that each bound their reads, where one
 * statement left the choice to the planner: it walked the workspace's links newest first
 * when it expected enough matches on the way, however far they lay (its estimate of a
 * substring's share is a guess from a sample), so a search of a workspace of 100,000 links
 * whose 3,700 matches were none of its newest read 40,000 links (52 ms), and one it expected
 * more of than there were would read them all. First the `walk` newest links after the
 * cursor, filtered: a search matching many links fills its page there. Then, if the page is
 * not full and there are older links, the matches among those from the trigram index (a set
 * the planner reads from the index unless it expects most links to match, as no order is
 * asked of it), sorted: a search matching few links reads those few.
 */
async function searchNewest(workspaceId: string, query: LinkListQuery, walk: number): Promise<LinkRow[]> {
  const walked = await pageRows(workspaceId, query, "walk", walk);
  if (walked.length >= query.rows) return walked;
  const edge = await db.rawQueryRow<{ id: number }>(
    `SELECT id FROM urls WHERE workspace_id = $1 AND ($2::int IS NULL OR id < $2::int)
     ORDER BY id DESC NULLS LAST OFFSET $3 LIMIT 1`,
    workspaceId,
    query.after?.id ?? null,
    walk - 1,
  );
  if (edge === null) return walked;
  const older = await pageRows(workspaceId, { ...query, rows: query.rows - walked.length }, "matches", edge.id);
  return [...walked, ...older];
}

/**
 * The rows of a page: of every link of the workspace ("all"), of the `bound` newest after the
 * cursor ("walk"), or of the links matching the search, those older than `bound` when given
 * ("matches", a set read first: MATERIALIZED keeps the planner from walking the workspace in
 * order to find them).
 */
function pageRows(workspaceId: string, query: LinkListQuery, source: "all" | "walk" | "matches", bound?: number): Promise<LinkRow[]> {
  const { from, after, orderBy, position } = orders[query.sort];
  const rows =
    source === "walk"
      ? `(SELECT * FROM urls WHERE workspace_id = $1 AND ($6::int[] IS NULL OR id < ($6::int[])[1]) ORDER BY id DESC NULLS LAST LIMIT $10) AS urls`
      : from;
  const matches =
    source === "matches"
      ? `WITH matches AS MATERIALIZED (SELECT id FROM urls WHERE workspace_id = $1 AND ${searchCondition("urls", "$2")})`
      : "";
  // The matches' bound applies to the set once read: in the set's own WHERE the planner would
  // also read the primary key's range below it, as many entries as the table has ids there.
  const older = source === "matches" ? "AND ($10::int IS NULL OR urls.id < $10::int)" : "";
  return db.rawQueryAll<LinkRow>(
    `${matches}
     SELECT ${linkColumns} FROM ${rows}${source === "matches" ? " JOIN matches ON matches.id = urls.id" : ""}
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
       ${older}
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
    // $10, the walk's length or the matches' bound, only where the SQL names it: an unused parameter has no type.
    ...(source === "all" ? [] : [bound ?? null]),
  );
}

/** A link's row by its exact code, deleted or not; null when there is none. */
export function linkRow(code: string): Promise<LinkRow | null> {
  return db.rawQueryRow<LinkRow>(`SELECT ${linkColumns} FROM urls WHERE code = $1`, code);
}
