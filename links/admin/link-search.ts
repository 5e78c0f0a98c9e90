import type { Primitive } from "encore.dev/storage/sqldb";
import { db } from "../db";
import type { AdminLinkSort, LinkPosition } from "../records/cursor";
import { containsPattern, searchCondition } from "../records/link-search";
import { linkColumnsOf, type LinkRow } from "../records/link-rows";

// Every link of the instance, for the administrators (the moderation service's GET
// /admin/links): anonymous links and every workspace's. Each filter is a condition an index
// of url migration 14 (or an earlier one) answers, so a page stays fast over a million links.

/** all (deleted ones too), active, inactive (scheduled, expired, exhausted or disabled), disabled, or deleted. */
export type AdminLinkStatus = "all" | "active" | "inactive" | "disabled" | "deleted";

export interface AdminLinkQuery {
  /** A substring of the code, URL or title, in any case (urls_workspace_search_idx). */
  readonly q?: string;
  /** A target host, normalised: its links and its subdomains' (urls_host_reversed_idx). */
  readonly host?: string;
  /** A creator's user id (urls_created_by_idx). */
  readonly creator?: string;
  readonly status: AdminLinkStatus;
  /** Only links with open reports. */
  readonly reported: boolean;
  readonly sort: AdminLinkSort;
  readonly rows: number;
  readonly after?: LinkPosition;
  readonly now: Date;
}

export interface AdminLinkRow extends LinkRow {
  disabled_reason: "abuse" | "host" | "account" | null;
  open_reports: number;
}

const active = `(u.disabled_at IS NULL AND (u.expires_at IS NULL OR u.expires_at > $now) AND (u.max_clicks IS NULL OR u.clicks < u.max_clicks)
  AND (u.starts_at IS NULL OR u.starts_at <= $now))`;

const statusConditions: Record<AdminLinkStatus, string | null> = {
  all: null,
  active: `u.deleted_at IS NULL AND ${active}`,
  inactive: `u.deleted_at IS NULL AND NOT ${active}`,
  disabled: "u.deleted_at IS NULL AND u.disabled_at IS NOT NULL",
  deleted: "u.deleted_at IS NOT NULL",
};

const columns = linkColumnsOf("u");

/** The ORDER BY of each sort and its keyset condition after a position ($after: [id] or [id, count]). */
const orders: Record<AdminLinkSort, { after: string; orderBy: string; position: (p: LinkPosition) => number[] }> = {
  newest: { after: "u.id < ($after::int[])[1]", orderBy: "u.id DESC", position: (p) => [p.id] },
  clicks: { after: "(u.clicks, u.id) < (($after::int[])[2], ($after::int[])[1])", orderBy: "u.clicks DESC, u.id DESC", position: (p) => [p.id, p.clicks ?? 0] },
  reports: { after: "(r.open_reports, u.id) < (($after::int[])[2], ($after::int[])[1])", orderBy: "r.open_reports DESC, u.id DESC", position: (p) => [p.id, p.clicks ?? 0] },
};

const reversedHost = "reverse(link_host(u.original_url))";

/**
 * A page of links. The SQL is put together from the constant conditions above, only those
 * a filter asks for, so that the planner sees each as it is and picks its index; every value
 * is a parameter. The reports order, and the reported filter, start from the open reports
 * (few), joined to their links.
 */
export function adminLinkRows(query: AdminLinkQuery): Promise<AdminLinkRow[]> {
  const params: Primitive[] = [];
  const param = (value: Primitive): string => `$${params.push(value)}`;
  const conditions: string[] = [];
  const { after, orderBy, position } = orders[query.sort];
  if (query.q !== undefined) conditions.push(searchCondition("u", param(containsPattern(query.q))));
  if (query.host !== undefined) {
    const reversed = [...query.host].reverse().join("");
    const subdomains = `${reversed.replace(/[\\%_]/g, "\\$&")}.%`;
    conditions.push(`(${reversedHost} = ${param(reversed)} OR ${reversedHost} LIKE ${param(subdomains)} ESCAPE '\\')`);
  }
  if (query.creator !== undefined) conditions.push(`u.created_by = ${param(query.creator)}`);
  const status = statusConditions[query.status];
  if (status !== null) {
    // One parameter for every $now, and none for a status without one (an unused parameter has no type).
    let now: string | undefined;
    conditions.push(status.replaceAll("$now", () => (now ??= `${param(query.now)}::timestamptz`)));
  }
  if (query.after !== undefined) {
    const p = param(position(query.after));
    conditions.push(after.replaceAll("$after", () => p));
  }
  const where = conditions.length === 0 ? "" : `WHERE ${conditions.join(" AND ")}`;
  const limit = param(query.rows);
  if (query.reported || query.sort === "reports") {
    return db.rawQueryAll<AdminLinkRow>(
      `SELECT ${columns}, u.disabled_reason, r.open_reports
       FROM (SELECT link_id, count(*)::int AS open_reports FROM link_reports WHERE resolved_at IS NULL GROUP BY link_id) r
       JOIN urls u ON u.id = r.link_id
       ${where}
       ORDER BY ${orderBy}
       LIMIT ${limit}`,
      ...params,
    );
  }
  // The open reports are counted for the page's links only, once the page is chosen.
  return db.rawQueryAll<AdminLinkRow>(
    `SELECT p.*, (SELECT count(*)::int FROM link_reports l WHERE l.link_id = p.id AND l.resolved_at IS NULL) AS open_reports
     FROM (SELECT ${columns}, u.disabled_reason FROM urls u ${where} ORDER BY ${orderBy} LIMIT ${limit}) p
     ORDER BY ${orderBy.replaceAll("u.", "p.")}`,
    ...params,
  );
}

/** How many links each account created, deleted ones too, counted up to `cap` (an index-only count, bounded). */
export async function linkCounts(userIds: readonly string[], cap: number): Promise<Map<string, number>> {
  const rows = await db.rawQueryAll<{ id: string; links: number }>(
    `SELECT a.id, (SELECT count(*)::int FROM (SELECT 1 FROM urls WHERE created_by = a.id LIMIT $2) s) AS links
     FROM unnest($1::text[]) AS a(id)`,
    userIds,
    cap,
  );
  return new Map(rows.map((row) => [row.id, row.links]));
}
