import { APIError } from "encore.dev/api";
import { linkStatus, type DisabledReason } from "../../link-rules/status";
import type { ReportedLink, ReportReason } from "../../link-rules/reports";
import { db } from "../db";

export type QueueStatus = "open" | "resolved";

interface GroupRow {
  link_id: number;
  /** The entry's time as PostgreSQL prints it, to the microsecond (a Date keeps milliseconds). */
  at: string;
  resolved_at: Date | null;
  resolution: "dismissed" | "disabled" | null;
  resolved_by: string | null;
  reports: number;
  reasons: Array<{ reason: ReportReason; count: number }>;
  latest: Array<{ id: number; reason: ReportReason; details: string | null; email: string | null; created_at: string }>;
  code: string;
  original_url: string;
  title: string | null;
  expires_at: Date | null;
  starts_at: Date | null;
  max_clicks: number | null;
  clicks: number;
  deleted_at: Date | null;
  disabled_at: Date | null;
  disabled_reason: DisabledReason | null;
  created_by: string | null;
}

/** The reports of each group and the link, the same for both queues. `g` has link_id and the group's condition `cond`. */
function details(cond: string): string {
  return `
    (SELECT count(*)::int FROM link_reports r WHERE r.link_id = g.link_id AND ${cond}) AS reports,
    (SELECT json_agg(json_build_object('reason', reason, 'count', n) ORDER BY n DESC, reason)
       FROM (SELECT reason, count(*)::int AS n FROM link_reports r WHERE r.link_id = g.link_id AND ${cond} GROUP BY reason) x) AS reasons,
    (SELECT json_agg(json_build_object('id', id, 'reason', reason, 'details', details, 'email', email, 'created_at', created_at) ORDER BY id DESC)
       FROM (SELECT * FROM link_reports r WHERE r.link_id = g.link_id AND ${cond} ORDER BY id DESC LIMIT 5) y) AS latest,
    u.code, u.original_url, u.title, u.expires_at, u.starts_at, u.max_clicks, u.clicks, u.deleted_at, u.disabled_at, u.disabled_reason, u.created_by`;
}

/**
 * A page of the queue. Open: each link with open reports, the most recently reported
 * first (grouped over the open reports, which the administrators keep few). Resolved: each
 * resolution (a link's reports closed at once), the newest first, read in order from
 * link_reports_resolved_idx.
 */
export async function queuePage(status: QueueStatus, rows: number, cursor: string | undefined): Promise<{ entries: ReportedLink[]; nextCursor?: string }> {
  const after = cursor === undefined ? null : decodeQueueCursor(cursor);
  const found =
    status === "open"
      ? await db.rawQueryAll<GroupRow>(
          `SELECT g.link_id, g.at::text AS at, NULL::timestamptz AS resolved_at, NULL AS resolution, NULL AS resolved_by, ${details("r.resolved_at IS NULL")}
           FROM (SELECT link_id, max(created_at) AS at FROM link_reports WHERE resolved_at IS NULL GROUP BY link_id) g
           JOIN urls u ON u.id = g.link_id
           WHERE $2::text IS NULL OR (g.at, g.link_id) < ($2::timestamptz, $3::int)
           ORDER BY g.at DESC, g.link_id DESC
           LIMIT $1`,
          rows,
          after?.at ?? null,
          after?.linkId ?? null,
        )
      : await db.rawQueryAll<GroupRow>(
          `SELECT g.link_id, g.resolved_at::text AS at, g.resolved_at, g.resolution, g.resolved_by, ${details("r.resolved_at = g.resolved_at")}
           FROM (SELECT DISTINCT ON (resolved_at, link_id) link_id, resolved_at, resolution, resolved_by FROM link_reports
                 WHERE resolved_at IS NOT NULL AND ($2::text IS NULL OR (resolved_at, link_id) < ($2::timestamptz, $3::int))
                 ORDER BY resolved_at DESC, link_id DESC
                 LIMIT $1) g
           JOIN urls u ON u.id = g.link_id
           ORDER BY g.resolved_at DESC, g.link_id DESC`,
          rows,
          after?.at ?? null,
          after?.linkId ?? null,
        );
  const entries = found.map(entryOf);
  const last = found.at(-2);
  return found.length === rows && last ? { entries: entries.slice(0, -1), nextCursor: encodeQueueCursor(last) } : { entries };
}

function entryOf(row: GroupRow): ReportedLink {
  const status = linkStatus({ expiresAt: row.expires_at, maxClicks: row.max_clicks, clicks: row.clicks, deletedAt: row.deleted_at, disabledAt: row.disabled_at, startsAt: row.starts_at });
  return {
    code: row.code,
    originalUrl: row.original_url,
    ...(row.title !== null && { title: row.title }),
    status,
    ...(row.disabled_reason !== null && row.disabled_at !== null && { disabledReason: row.disabled_reason }),
    ...(row.created_by !== null && { createdBy: row.created_by }),
    reports: row.reports,
    reasons: row.reasons,
    latest: row.latest.map((r) => ({
      id: String(r.id),
      reason: r.reason,
      ...(r.details !== null && { details: r.details }),
      ...(r.email !== null && { email: r.email }),
      createdAt: new Date(r.created_at),
    })),
    lastReportedAt: new Date(Math.max(...row.latest.map((r) => Date.parse(r.created_at)))),
    ...(row.resolved_at !== null && { resolvedAt: row.resolved_at, resolution: row.resolution!, resolvedBy: row.resolved_by! }),
  };
}

// The cursor: the last entry's time to the microsecond (as PostgreSQL prints it) and link id.
function encodeQueueCursor(row: GroupRow): string {
  return Buffer.from(JSON.stringify({ a: row.at, l: row.link_id })).toString("base64url");
}

const timestampText = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?[+-]\d\d(:\d\d)?$/;

function decodeQueueCursor(cursor: string): { at: string; linkId: number } {
  try {
    const { a, l } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { a: unknown; l: unknown };
    if (typeof a === "string" && timestampText.test(a) && Number.isInteger(l) && (l as number) > 0 && (l as number) < 2 ** 31) return { at: a, linkId: l as number };
  } catch {
    // not ours: answered below
  }
  throw APIError.invalidArgument("cursor must be the nextCursor of a previous page");
}

/**
 * Resolves a link's open reports (`code` in any case) as dismissed or as disabled, by
 * `resolvedBy`, forgetting who sent them. The link's stored code and how many reports it
 * closed; 404 when the link has none open.
 */
export async function resolveReports(code: string, resolution: "dismissed" | "disabled", resolvedBy: string): Promise<{ code: string; reports: number }> {
  const row = await db.queryRow<{ code: string; reports: number }>`
    WITH link AS (SELECT id, code FROM urls WHERE lower(code) = lower(${code})),
    closed AS (
      UPDATE link_reports SET resolved_at = now(), resolution = ${resolution}, resolved_by = ${resolvedBy}, reporter = NULL
      WHERE link_id = (SELECT id FROM link) AND resolved_at IS NULL
      RETURNING 1)
    SELECT (SELECT code FROM link) AS code, (SELECT count(*)::int FROM closed) AS reports`;
  if (row === null || row.code === null || row.reports === 0) throw APIError.notFound("no open reports of this link");
  return row;
}

/** How many open reports the link with this code (in any case) has. */
export async function openReports(code: string): Promise<number> {
  const row = await db.queryRow<{ n: number }>`
    SELECT count(*)::int AS n FROM link_reports r JOIN urls u ON u.id = r.link_id
    WHERE lower(u.code) = lower(${code}) AND r.resolved_at IS NULL`;
  return row?.n ?? 0;
}
