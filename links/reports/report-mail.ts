import { appMeta } from "encore.dev";
import { adminEmailList } from "../../access/admin-emails";
import type { ReportReason } from "../../link-rules/reports";
import { outgoingMail } from "../../mail/events";

/**
 * Tells every admin (ADMIN_EMAILS) of a new report, one mail each, so a phishing link does
 * not wait in the queue until someone happens to look. A repeat of an open report sends
 * nothing (the caller does not call this), so one address cannot make the admins' inboxes
 * grow faster than the report limit lets the queue grow.
 */
export async function mailAdminsOfReport(report: { code: string; reason: ReportReason; details?: string }): Promise<void> {
  const base = appMeta().apiBaseUrl;
  const text = [
    `A link was reported as ${report.reason}: ${base}/${report.code}`,
    ...(report.details ? ["", "The reporter wrote:", report.details] : []),
    "",
    `The queue of reported links: ${base}/#/admin`,
  ].join("\n");
  await Promise.all(
    adminEmailList().map((to) => outgoingMail.publish({ to, kind: "link-reported", subject: `Link ${report.code} reported as ${report.reason}`, text })),
  );
}
