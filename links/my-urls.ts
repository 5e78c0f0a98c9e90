import { appMeta } from "encore.dev";
import { shortUrlOf } from "../link-rules/short-url";
import { api, APIError, type Query } from "encore.dev/api";
import type { Max, Min } from "encore.dev/validate";
import { getAuthData } from "~encore/auth";
import { db } from "./db";
import { exactClicks } from "./records/exact-clicks";
import { requireKeyWorkspace, requireScope } from "../access/scopes";

export interface MyUrlsRequest {
  /** Links per page, 1 to 100; default 20. */
  limit?: Query<number & Min<1> & Max<100>>;
  /** Where to continue: the `nextCursor` of the previous page. */
  cursor?: Query<string>;
}

export interface MyUrl {
  code: string;
  shortUrl: string;
  originalUrl: string;
  /** Stored clicks plus those this instance has answered but not yet written. */
  clicks: number;
  createdAt: Date;
}

export interface MyUrlsResponse {
  /** Newest first. */
  urls: MyUrl[];
  /** Present when there are more: pass it as `cursor` for the next page. */
  nextCursor?: string;
}

const defaultLimit = 20;

/**
 * The signed-in user's short links with their clicks, newest first, a page at a time: those
 * of their personal workspace (a team workspace's are listed by GET /links?workspaceId=,
 * and stop being the user's when they leave it). Read-only: it publishes nothing.
 */
export const myUrls = api(
  { expose: true, auth: true, method: "GET", path: "/me/urls" },
  async ({ limit = defaultLimit, cursor }: MyUrlsRequest): Promise<MyUrlsResponse> => {
    requireScope("links:read");
    const user = getAuthData()!; // auth: true, so the runtime only calls this with a signed-in user
    requireKeyWorkspace(user.userID);
    if (!Number.isInteger(limit)) throw APIError.invalidArgument(`limit must be a whole number, got ${limit}`);
    const before = cursor === undefined ? null : cursorId(cursor);
    const baseUrl = appMeta().apiBaseUrl;
    // One row more than asked for tells whether another page follows. Keyset paging
    // (id below the cursor) stays correct while new links are added at the top.
    const rows = await db.queryAll<{ id: number; code: string; original_url: string; clicks: number; created_at: Date; domain: string | null }>`
      SELECT id, code, original_url, clicks, created_at, domain FROM urls
      WHERE workspace_id = ${user.userID} AND (${before}::int IS NULL OR id < ${before}::int)
      ORDER BY id DESC NULLS LAST -- urls_workspace_id_idx's order (url migration 18)
      LIMIT ${limit + 1}`;
    const page = rows.slice(0, limit);
    const clicks = await exactClicks(page); // exact, as stats counts them
    const urls = page.map((r) => ({
      code: r.code,
      shortUrl: shortUrlOf(r.code, r.domain, baseUrl),
      originalUrl: r.original_url,
      clicks: clicks.get(r.code)!,
      createdAt: r.created_at,
    }));
    return rows.length > limit ? { urls, nextCursor: String(page.at(-1)!.id) } : { urls };
  },
);

function cursorId(cursor: string): number {
  const id = Number(cursor);
  if (!/^[1-9][0-9]{0,9}$/.test(cursor) || id > 2 ** 31 - 1) {
    throw APIError.invalidArgument("cursor must be the nextCursor of a previous page");
  }
  return id;
}
