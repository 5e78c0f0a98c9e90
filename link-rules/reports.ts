// What a report of an abusive link says, and the queue's entry of a reported link: the links
// service keeps the reports and answers its queue, the moderation service passes the queue
// on to administrators, so both answer this one shape.
import type { DisabledReason, LinkStatus } from "./status";

/** Why a visitor reports a link. */
export type ReportReason = "spam" | "phishing" | "malware" | "illegal" | "other";

/** One report, as the administrator reads it (never who sent it: their address is not kept). */
export interface LinkReport {
  id: string;
  reason: ReportReason;
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
  status: LinkStatus;
  disabledReason?: DisabledReason;
  /** The link's creator's user id; left out for an anonymous link. */
  createdBy?: string;
  /** How many reports, and how many for each reason given. */
  reports: number;
  reasons: Array<{ reason: ReportReason; count: number }>;
  /** The newest reports, at most 5, newest first. */
  latest: LinkReport[];
  /** The newest report's time. */
  lastReportedAt: Date;
  /** Resolved entries only: when, how, by whom (a user id). */
  resolvedAt?: Date;
  resolution?: "dismissed" | "disabled";
  resolvedBy?: string;
}
