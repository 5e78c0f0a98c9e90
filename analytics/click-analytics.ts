import { api, APIError, type Header } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { addressKey } from "../limits/address";
import { analyticsReads } from "../limits/analytics-reads";
import { accessRow, readableAnalytics } from "./link-analytics/access";
import { clickAnalytics } from "./link-analytics/query";
import type { ClickAnalytics } from "./click-reads/shapes";
import { analyticsRange, type AnalyticsRange } from "./click-reads/range";
import { workspaceClickAnalytics } from "./workspace-analytics/query";
import { isWellFormedCode } from "../link-rules/codes";
import { requireKeyWorkspace, requireScope } from "../access/scopes";

// Click analytics: when a link's clicks came, from where, on what, and which were bots'
// (what a click records: click-analytics/; how it is stored: url migration 10).

export interface RangeRequest {
  /** Start of the range: an ISO 8601 date (midnight UTC) or date-time with a zone. Default: 30 days before `to`. */
  from?: string;
  /** End of the range (excluded), as `from`. Default: now. */
  to?: string;
  /** Bucket size of the series: "day" (the default) or "hour" (ranges of up to 31 days, within the last 31 days). */
  interval?: "hour" | "day";
  /** The IANA time zone whose days the series counts (default UTC). */
  tz?: string;
  /**
   * The client's address, for the limit on analytics reads per address (and on guessing a
   * link's password). The runtime sets it
   * from the connection, replacing what the client sent, unless it runs behind a trusted
   * proxy (TRUST_PROXY=on), which sets it.
   */
  forwardedFor?: Header<"X-Forwarded-For">;
}

export interface LinkAnalyticsRequest extends RangeRequest {
  code: string;
  /** An anonymous password link's password (as GET /:code takes it). */
  password?: Header<"X-Link-Password">;
}

export interface RangeAnswer {
  from: string;
  to: string;
  interval: "hour" | "day";
  tz: string;
}

export interface LinkAnalyticsResponse extends RangeAnswer, ClickAnalytics {
  code: string;
}

export type MyClicksResponse = RangeAnswer & ClickAnalytics;

/**
 * One link's click analytics over a range: totals, the series, and the top referrers,
 * countries, browsers, OS and devices, humans and bots apart. An anonymous link's are
 * public (as its stats are) unless it has a password, then only with its password; an
 * owned link's are its owner's (link-analytics/access.ts). Counts are what is stored:
 * clicks answered in the last flush interval (100 ms by default) show a moment later.
 * Read-only. Limited per client address (429 with retryAfterSeconds), a few at once per
 * instance and time-boxed (503 with retryAfterSeconds): limits/analytics-reads.ts.
 */
export const linkAnalytics = api(
  // sensitive: the request may hold a link's password, which must not reach traces or logs.
  { expose: true, method: "GET", path: "/:code/analytics", sensitive: true },
  async ({ code, password, forwardedFor, ...params }: LinkAnalyticsRequest): Promise<LinkAnalyticsResponse> => {
    requireScope("analytics:read");
    if (!isWellFormedCode(code)) throw APIError.notFound("url not found");
    await analyticsReads.count(addressKey(forwardedFor));
    const range = await analyticsRange(params);
    await readableAnalytics(await accessRow(code), { userID: getAuthData()?.userID, password, forwardedFor });
    return { code, ...answerOf(range), ...(await clickAnalytics([code], range)) };
  },
);

/**
 * The caller's click analytics across the links of their personal workspace (deleted ones
 * included: their clicks happened), from the workspace's own rows, so the read does not
 * grow with its links (workspace-analytics/query.ts); a team workspace's links are the
 * team's, read one by one (or by tag) by its members. Read-only; limited as GET /:code/analytics.
 */
export const myClicks = api(
  { expose: true, auth: true, method: "GET", path: "/me/clicks" },
  async ({ forwardedFor, ...params }: RangeRequest): Promise<MyClicksResponse> => {
    requireScope("analytics:read");
    await analyticsReads.count(addressKey(forwardedFor));
    const range = await analyticsRange(params);
    const { userID } = getAuthData()!;
    requireKeyWorkspace(userID);
    return { ...answerOf(range), ...(await workspaceClickAnalytics(userID, range)) };
  },
);

export function answerOf(range: AnalyticsRange): RangeAnswer {
  return { from: range.from.toISOString(), to: range.to.toISOString(), interval: range.interval, tz: range.tz };
}
