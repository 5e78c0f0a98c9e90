import { APIError } from "encore.dev/api";
import type { ReportReason } from "../../link-rules/reports";
import { db } from "../db";

export interface NewReport {
  readonly code: string;
  readonly reason: ReportReason;
  readonly details?: string;
  readonly email?: string;
  /** reporterOf the client's address. */
  readonly reporter: string;
}

/**
 * The link a report names, by its code in any case: 404 for none, a deleted link, or a
 * disabled one (the public sees it gone; nothing is left to report).
 */
export async function reportedLink(code: string): Promise<number> {
  const link = await db.queryRow<{ id: number; deleted: boolean; disabled: boolean }>`
    SELECT id, deleted_at IS NOT NULL AS deleted, disabled_at IS NOT NULL AS disabled
    FROM urls WHERE lower(code) = lower(${code})`;
  if (link === null) throw APIError.notFound("url not found");
  if (link.deleted) throw APIError.notFound("link deleted");
  if (link.disabled) throw APIError.notFound("link disabled");
  return link.id;
}

/** The open report of this reporter about this link, if there is one. */
export async function openReportOf(linkId: number, reporter: string): Promise<string | undefined> {
  const row = await db.queryRow<{ id: string }>`
    SELECT id FROM link_reports WHERE link_id = ${linkId} AND reporter = ${reporter} AND resolved_at IS NULL`;
  return row?.id;
}

/**
 * Stores the report; when the same reporter's open report of the link was stored meanwhile
 * (two at once), that one is the report: the unique index decides.
 */
export async function fileReport(linkId: number, report: NewReport): Promise<string> {
  const row = await db.queryRow<{ id: string }>`
    INSERT INTO link_reports (link_id, reason, details, email, reporter)
    VALUES (${linkId}, ${report.reason}, ${report.details ?? null}, ${report.email ?? null}, ${report.reporter})
    ON CONFLICT (link_id, reporter) WHERE resolved_at IS NULL DO NOTHING
    RETURNING id`;
  return row?.id ?? (await openReportOf(linkId, report.reporter))!;
}
