import { api, APIError, type Query } from "encore.dev/api";
import type { Max, MaxLen, Min } from "encore.dev/validate";
import { getAuthData } from "~encore/auth";
import { clickCounter } from "./click-counting/instance";
import { decodeCursor, encodeCursor, type LinkSort } from "./links/cursor";
import { listLinkRows, type LinkStatusFilter } from "./links/link-reads";
import { linkView, toLink, type Link } from "./links/link-rows";

export interface ListLinksRequest {
  /** Only links whose code, URL or title contains this text, in any case. */
  q?: Query<string & MaxLen<2048>>;
  // A GET's fields are query parameters unless said otherwise: Query<"a" | "b"> would name
  // the parameter "a" | "b" rather than give its values.
  /** active, inactive (expired, exhausted or disabled), or all (the default). Deleted links are never listed. */
  status?: LinkStatusFilter;
  /** newest first (the default), or most clicked first. */
  sort?: LinkSort;
  /** Links per page, 1 to 100; default 20. */
  limit?: Query<number & Min<1> & Max<100>>;
  /** Where to continue: the `nextCursor` of the previous page, with the same sort. */
  cursor?: Query<string>;
}

export interface ListLinksResponse {
  links: Link[];
  /** Present when there are more: pass it as `cursor` for the next page. */
  nextCursor?: string;
}

const defaultLimit = 20;

/** The signed-in user's links, searched, filtered and sorted, a page at a time. Read-only: it publishes nothing. */
export const listLinks = api(
  { expose: true, auth: true, method: "GET", path: "/links" },
  async ({ q, status = "all", sort = "newest", limit = defaultLimit, cursor }: ListLinksRequest): Promise<ListLinksResponse> => {
    const user = getAuthData()!; // auth: true, so the runtime only calls this with a signed-in user
    if (!Number.isInteger(limit)) throw APIError.invalidArgument(`limit must be a whole number, got ${limit}`);
    const after = cursor === undefined ? undefined : decodeCursor(cursor, sort);
    const view = linkView();
    const search = { q: q === "" ? undefined : q, status, sort, rows: limit + 1, after, now: new Date(view.now) };
    // Exact like stats (ClickCounter.consistentRead): no await between the SELECT and pending().
    return clickCounter.consistentRead(async () => {
      const rows = await listLinkRows(user.userID, search);
      const page = rows.slice(0, limit);
      const links = page.map((row) => toLink(row, clickCounter.pending(row.code), view));
      if (rows.length <= limit) return { links };
      const last = page.at(-1)!;
      return { links, nextCursor: encodeCursor(sort, { id: last.id, clicks: last.clicks }) };
    });
  },
);
