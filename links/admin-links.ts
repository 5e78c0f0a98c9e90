import { api, APIError } from "encore.dev/api";
import type { Max, MaxLen, Min } from "encore.dev/validate";
import { adminLinkRows, linkCounts, type AdminLinkStatus } from "./admin/link-search";
import { decodeCursor, encodeCursor, type AdminLinkSort } from "./records/cursor";
import { exactClicks } from "./records/exact-clicks";
import { linkView, toLink, type Link } from "./records/link-rows";
import type { ReportedLink } from "../link-rules/reports";
import { openReports, queuePage, resolveReports, type QueueStatus } from "./reports/queue";
import { hostOf } from "../limits/links";
import type { DisabledReason } from "../link-rules/status";

// The url service's side of the administrators' lists (the moderation service's GET
// /admin/links and /admin/reports): internal, for the moderation service, which checks its
// caller is an administrator and records each action.

export interface AdminLinksRequest {
  q?: string & MaxLen<2048>;
  /** A target host: its links and its subdomains'. */
  host?: string & MaxLen<253>;
  /** The creator's user id. */
  creator?: string & MaxLen<64>;
  status?: AdminLinkStatus;
  /** Only links with open reports. */
  reported?: boolean;
  sort?: AdminLinkSort;
  limit: number & Min<1> & Max<100>;
  cursor?: string;
}

/** A link as an administrator sees it. */
export interface AdminLink extends Link {
  /** Why it is disabled, while it is. */
  disabledReason?: DisabledReason;
  /** The user id of who made it; left out for an anonymous link. */
  createdBy?: string;
  /** The workspace it belongs to; left out for an anonymous link. */
  workspaceId?: string;
  /** Reports about it not yet resolved. */
  openReports: number;
}

export interface AdminLinksResponse {
  links: AdminLink[];
  nextCursor?: string;
}

/** A page of every link of the instance, searched, filtered and sorted. */
export const adminLinks = api(
  { expose: false, method: "POST", path: "/internal/admin/links" },
  async ({ q, host, creator, status = "all", reported = false, sort = "newest", limit, cursor }: AdminLinksRequest): Promise<AdminLinksResponse> => {
    if (!Number.isInteger(limit)) throw APIError.invalidArgument(`limit must be a whole number, got ${limit}`);
    const after = cursor === undefined ? undefined : decodeCursor(cursor, sort);
    const view = linkView();
    const rows = await adminLinkRows({
      q: q === "" ? undefined : q,
      host: host === undefined || host.trim() === "" ? undefined : hostFilter(host),
      creator: creator === "" ? undefined : creator,
      status,
      reported,
      sort,
      rows: limit + 1,
      after,
      now: new Date(view.now),
    });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const nextCursor =
      rows.length > limit && last ? encodeCursor(sort, { id: last.id, clicks: sort === "reports" ? last.open_reports : last.clicks }) : undefined;
    const clicks = await exactClicks(page);
    const links = page.map((row): AdminLink => {
      const link: AdminLink = { ...toLink(row, clicks.get(row.code)!, view), openReports: row.open_reports };
      if (row.disabled_reason !== null && row.disabled_at !== null) link.disabledReason = row.disabled_reason;
      if (row.created_by !== null) link.createdBy = row.created_by;
      if (row.workspace_id !== null) link.workspaceId = row.workspace_id;
      return link;
    });
    return nextCursor === undefined ? { links } : { links, nextCursor };
  },
);

export interface LinkCountsRequest {
  /** At most 100 user ids. */
  userIds: string[];
}

export interface LinkCountsResponse {
  /** Each account's links (deleted ones too), counted up to `cap`: cap means "cap or more". */
  counts: Array<{ userId: string; links: number }>;
  cap: number;
}

/** Capped so that an account with a million links costs no more than one with a thousand. */
const countCap = 1000;

/** How many links each account made. */
export const linkCountsOf = api(
  { expose: false, method: "POST", path: "/internal/admin/link-counts" },
  async ({ userIds }: LinkCountsRequest): Promise<LinkCountsResponse> => {
    if (userIds.length > 100) throw APIError.invalidArgument("userIds must hold at most 100 ids");
    const counts = await linkCounts(userIds, countCap);
    return { counts: userIds.map((userId) => ({ userId, links: counts.get(userId) ?? 0 })), cap: countCap };
  },
);

export interface ReportQueueRequest {
  status: QueueStatus;
  limit: number & Min<1> & Max<100>;
  cursor?: string;
}

export interface ReportQueueResponse {
  links: ReportedLink[];
  nextCursor?: string;
}

/** A page of the reports queue: open (links with open reports, most recently reported first) or resolved (newest resolution first). */
export const reportQueue = api(
  { expose: false, method: "POST", path: "/internal/admin/reports" },
  async ({ status, limit, cursor }: ReportQueueRequest): Promise<ReportQueueResponse> => {
    if (!Number.isInteger(limit)) throw APIError.invalidArgument(`limit must be a whole number, got ${limit}`);
    const { entries, nextCursor } = await queuePage(status, limit + 1, cursor);
    return nextCursor === undefined ? { links: entries } : { links: entries, nextCursor };
  },
);

export interface ResolveReportsRequest {
  code: string;
  resolution: "dismissed" | "disabled";
  /** The administrator's user id. */
  resolvedBy: string;
}

export interface ResolveReportsResponse {
  /** The link's code as stored. */
  code: string;
  /** How many reports this closed. */
  reports: number;
}

/** Closes a link's open reports; 404 when it has none. */
export const resolveLinkReports = api(
  { expose: false, method: "POST", path: "/internal/admin/reports/:code/resolve" },
  async ({ code, resolution, resolvedBy }: ResolveReportsRequest): Promise<ResolveReportsResponse> => resolveReports(code, resolution, resolvedBy),
);

/** A host to filter by, normalised as stored URLs' hosts are (case, IDN, a trailing dot); 400 for anything else. */
function hostFilter(input: string): string {
  const host = hostOf(input.trim());
  if (host === null || host === "") throw APIError.invalidArgument(`host must be a host name such as example.com, got "${input}"`);
  return host;
}

/** How many open reports a link has (its code in any case); 0 for none, or no such link. */
export const openReportCount = api(
  { expose: false, method: "GET", path: "/internal/admin/reports/:code/open" },
  async ({ code }: { code: string }): Promise<{ reports: number }> => ({ reports: await openReports(code) }),
);
