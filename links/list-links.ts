import { api, APIError, type Query } from "encore.dev/api";
import type { Max, MaxLen, Min } from "encore.dev/validate";
import { getAuthData } from "~encore/auth";
import { decodeCursor, encodeCursor, type LinkSort } from "./records/cursor";
import { listLinkRows, type LinkStatusFilter } from "./records/link-reads";
import { exactClicks } from "./records/exact-clicks";
import { linkView, toLink, type Link } from "./records/link-rows";
import { recentClicks } from "./records/recent-clicks";
import { requireKeyWorkspace, keyWorkspace, requireScope } from "../access/scopes";
import { roleIn } from "./records/workspace-access";
import { filterTagIds } from "./tagging/link-tags";
import { checkTagNames } from "./tagging/names";

export interface ListLinksRequest {
  /** Only links whose code, URL or title contains this text, in any case. */
  q?: Query<string & MaxLen<2048>>;
  // A GET's fields are query parameters unless said otherwise: Query<"a" | "b"> would name
  // the parameter "a" | "b" rather than give its values.
  /** active, inactive (scheduled, expired, exhausted or disabled), or all (the default). Deleted links are never listed. */
  status?: LinkStatusFilter;
  /** newest first (the default), or most clicked first. */
  sort?: LinkSort;
  /** Links per page, 1 to 100; default 20. */
  limit?: Query<number & Min<1> & Max<100>>;
  /** Where to continue: the `nextCursor` of the previous page, with the same sort. */
  cursor?: Query<string>;
  /** The workspace whose links to list, one the caller belongs to; by default their personal one. */
  workspaceId?: Query<string & MaxLen<64>>;
  /** Only links with these tags: names separated by commas, in any case, at most 20. */
  tags?: Query<string & MaxLen<1100>>;
  /** With `tags`: links with any of them (the default), or with all of them. */
  tagsMode?: "any" | "all";
  /** Only links on this custom domain of the workspace (its host). */
  domain?: Query<string & MaxLen<300>>;
}

/** A link as listed: with its recent clicks, for a sparkline. */
export interface ListedLink extends Link {
  /**
   * Clicks (humans and bots) per 24-hour window over the last 14 days, oldest first, the
   * last window ending with the current hour. From stored clicks: the last flush
   * interval's clicks show a moment later.
   */
  recentClicks: number[];
}

export interface ListLinksResponse {
  links: ListedLink[];
  /** Present when there are more: pass it as `cursor` for the next page. */
  nextCursor?: string;
}

const defaultLimit = 20;

/**
 * A workspace's links (by default the caller's personal workspace's), searched, filtered and
 * sorted, a page at a time: any member may list them; a team workspace the caller is not in
 * is 404. Read-only: it publishes nothing.
 */
export const listLinks = api(
  { expose: true, auth: true, method: "GET", path: "/links" },
  async ({ q, status = "all", sort = "newest", limit = defaultLimit, cursor, workspaceId, tags, tagsMode = "any", domain }: ListLinksRequest): Promise<ListLinksResponse> => {
    requireScope("links:read");
    const user = getAuthData()!; // auth: true, so the runtime only calls this with a signed-in user
    const workspace = workspaceId ?? keyWorkspace() ?? user.userID;
    if ((await roleIn(workspace, user.userID)) === undefined) throw APIError.notFound("workspace not found");
    requireKeyWorkspace(workspace);
    if (!Number.isInteger(limit)) throw APIError.invalidArgument(`limit must be a whole number, got ${limit}`);
    const after = cursor === undefined ? undefined : decodeCursor(cursor, sort);
    const tagFilter = tags === undefined || tags.trim() === "" ? undefined : await tagFilterOf(workspace, tags, tagsMode);
    const view = linkView();
    const search = { q: q === "" ? undefined : q, status, sort, rows: limit + 1, after, now: new Date(view.now), tags: tagFilter, domain: domain === "" ? undefined : domain };
    const rows = await listLinkRows(workspace, search);
    const page = rows.slice(0, limit);
    // The cursor keeps the stored count the page was sorted by; the links show exact clicks.
    const last = page.at(-1);
    const nextCursor = rows.length > limit && last ? encodeCursor(sort, { id: last.id, clicks: last.clicks }) : undefined;
    const [clicks, recent] = await Promise.all([exactClicks(page), recentClicks(page.map((row) => row.code))]);
    const links = page.map((row) => toLink(row, clicks.get(row.code)!, view));
    const listed = links.map((link) => ({ ...link, recentClicks: recent.get(link.code)! }));
    return nextCursor === undefined ? { links: listed } : { links: listed, nextCursor };
  },
);

/**
 * The filter of `tags=a,b`: the tags' ids and how many of them a link needs (one for any,
 * all the names for all). A name no tag has matches no link: with all, then, no link.
 */
async function tagFilterOf(workspaceId: string, tags: string, mode: "any" | "all"): Promise<{ ids: number[]; needed: number }> {
  if (mode !== "any" && mode !== "all") throw APIError.invalidArgument(`tagsMode must be "any" or "all", got "${String(mode)}"`);
  const names = checkTagNames(tags.split(","), "tags");
  return { ids: await filterTagIds(workspaceId, names), needed: mode === "all" ? names.length : 1 };
}
