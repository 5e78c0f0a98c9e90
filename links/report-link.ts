import { api, type Header } from "encore.dev/api";
import type { IsEmail, MaxLen, MinLen } from "encore.dev/validate";
import { addressKey } from "../limits/address";
import { reportLimits } from "../limits/reports";
import type { ReportReason } from "../link-rules/reports";
import { fileReport, openReportOf, reportedLink } from "./reports/filing";
import { reporterOf } from "./reports/reporter";
import { mailAdminsOfReport } from "./reports/report-mail";

export interface ReportLinkRequest {
  /** The link's code, in any case. */
  code: string & MinLen<1> & MaxLen<64>;
  reason: ReportReason;
  /** What the reporter saw, for the administrator. */
  details?: string & MaxLen<1000>;
  /** Where the reporter may be answered; optional. */
  email?: string & IsEmail & MaxLen<254>;
  /** The client's address, for the limit on reports (set by the runtime, as for POST /users). */
  forwardedFor?: Header<"X-Forwarded-For">;
}

export interface ReportLinkResponse {
  /** The report's id: the same again when this address reports an open report's link again. */
  id: string;
}

/**
 * Reports a link as abusive, for the administrators' queue (GET /admin/reports). Public,
 * no sign-in. An unknown, deleted or disabled link: 404. Limited per client address
 * (limits/reports.ts, 429); the same address reporting a link it has an open report of
 * gets that report's id back, counted neither in the queue nor against the limit. The
 * address itself is not stored (links/reports/reporter.ts). Each new report is mailed to
 * the admins (ADMIN_EMAILS).
 */
export const reportLink = api(
  { expose: true, method: "POST", path: "/reports" },
  async ({ code, reason, details, email, forwardedFor }: ReportLinkRequest): Promise<ReportLinkResponse> => {
    const linkId = await reportedLink(code);
    const address = addressKey(forwardedFor);
    const reporter = await reporterOf(address);
    const open = await openReportOf(linkId, reporter);
    if (open !== undefined) return { id: open };
    await reportLimits.count(address);
    const trimmed = details?.trim() || undefined;
    const id = await fileReport(linkId, { code, reason, details: trimmed, email, reporter });
    await mailAdminsOfReport({ code, reason, details: trimmed });
    return { id };
  },
);
