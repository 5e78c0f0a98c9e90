import { api, APIError, type Query } from "encore.dev/api";
import type { Max, MaxLen, Min } from "encore.dev/validate";
import { links } from "~encore/clients";
import { requireAdmin } from "./audit/admin";
import { record, type ModerationAction } from "./audit/log";

/** One report, as the administrator reads it (never who sent it: their address is not kept). */
export interface LinkReport {
  id: string;
  reason: "spam" | "phishing" | "malware" | "illegal" | "other";
  details?: string;
  /** Given by the reporter, to be answered. */
  email?: string;
  createdAt: Date;
}

/** A link's reports, as one entry of the queue. */
export interface ReportedLink {
  code: string;
  originalUrl: string;
  title?: string;
  status: "active" | "expired" | "exhausted" | "deleted" | "disabled";
  disabledReason?: "abuse" | "host" | "account";
  /** The link's creator's user id; left out for an anonymous link. */
  createdBy?: string;
  /** How many reports, and how many for each reason. */
  reports: number;
  reasons: Array<{ reason: LinkReport["reason"]; count: number }>;
  /** The newest reports, at most 5, newest first. */
  latest: LinkReport[];
  lastReportedAt: Date;
  /** Resolved entries only: when, how, and by whom (a user id). */
  resolvedAt?: Date;
  resolution?: "dismissed" | "disabled";
  resolvedBy?: string;
}

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
