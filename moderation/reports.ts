import { api, APIError, type Query } from "encore.dev/api";
import type { Max, MaxLen, Min } from "encore.dev/validate";
import { links } from "~encore/clients";
import type { ReportedLink } from "../link-rules/reports";
import { requireAdmin } from "./audit/admin";
import { record, type ModerationAction } from "./audit/log";


export interface ReportQueueRequest {
  /** open (the default): links with reports to work through; resolved: those already dealt with. */
  status?: "open" | "resolved";
  /** Links per page, 1 to 100; default 20. */
  limit?: Query<number & Min<1> & Max<100>>;
  /** Where to continue: the `nextCursor` of the previous page. */
  cursor?: Query<string>;
}

export interface ReportQueueResponse {
  /** Open: the most recently reported first; resolved: the newest resolution first. */
  links: ReportedLink[];
  nextCursor?: string;
}

const defaultLimit = 20;

/** The queue of reported links, each with its reports counted by reason and the newest ones. Admin only (else 403). */
export const listReports = api(
  { expose: true, auth: true, method: "GET", path: "/admin/reports" },
  async ({ status = "open", limit = defaultLimit, cursor }: ReportQueueRequest): Promise<ReportQueueResponse> => {
    requireAdmin();
    if (!Number.isInteger(limit)) throw APIError.invalidArgument(`limit must be a whole number, got ${limit}`);
    return links.reportQueue({ status, limit, cursor });
  },
);

export interface ResolveRequest {
  /** The reported link's code, in any case. */
  code: string;
  /** Why, for the audit log. */
  reason?: string & MaxLen<500>;
}

export interface ResolveResponse {
  /** What the audit log recorded: disable_link then uphold_reports, or dismiss_reports alone. */
  actions: ModerationAction[];
  /** How many reports this closed. */
  reports: number;
  /** How many links this stopped (0: the link already was). */
  links: number;
}

/** Dismisses a link's open reports, leaving the link as it is. No open reports: 404. Admin only (else 403). */
export const dismissReports = api(
  { expose: true, auth: true, method: "POST", path: "/admin/reports/:code/dismiss" },
  async ({ code, reason }: ResolveRequest): Promise<ResolveResponse> => {
    const admin = requireAdmin();
    const closed = await links.resolveLinkReports({ code, resolution: "dismissed", resolvedBy: admin.userID });
    return { actions: [await record(admin, "dismiss_reports", closed.code, reason)], reports: closed.reports, links: 0 };
  },
);

/**
 * Upholds a link's open reports: disables the link for abuse as POST
 * /admin/links/:code/disable does (recorded as disable_link), then closes its reports
 * (uphold_reports). No open reports: 404, and the link is left alone. Admin only (else 403).
 */
export const upholdReports = api(
  { expose: true, auth: true, method: "POST", path: "/admin/reports/:code/disable" },
  async ({ code, reason }: ResolveRequest): Promise<ResolveResponse> => {
    const admin = requireAdmin();
    if ((await links.openReportCount({ code })).reports === 0) throw APIError.notFound("no open reports of this link");
    const disabled = await links.disableLinkForAbuse({ code });
    const disabling = await record(admin, "disable_link", disabled.code, reason);
    const closed = await links.resolveLinkReports({ code: disabled.code, resolution: "disabled", resolvedBy: admin.userID });
    return { actions: [disabling, await record(admin, "uphold_reports", closed.code, reason)], reports: closed.reports, links: disabled.links };
  },
);
