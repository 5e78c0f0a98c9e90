import { api } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { requireScope } from "../access/scopes";
import { addressKey } from "../limits/address";
import { analyticsReads } from "../limits/analytics-reads";
import { answerOf, type RangeAnswer, type RangeRequest } from "./click-analytics";
import { codesOfDomain, readableDomain } from "./link-analytics/domain-links";
import { clickAnalytics } from "./link-analytics/query";
import type { ClickAnalytics } from "./click-reads/shapes";
import { analyticsRange } from "./click-reads/range";

export interface DomainAnalyticsRequest extends RangeRequest {
  /** The workspace's id (a personal workspace's is its account's id). */
  id: string;
  /** The domain's host name, as the workspace's domains list it. */
  host: string;
}

export interface DomainAnalyticsResponse extends RangeAnswer, ClickAnalytics {
  domain: string;
}

/**
 * A custom domain's click analytics: GET /:code/analytics's totals, series and breakdowns
 * summed over every link made on the domain (deleted ones included), by the same statements
 * as one link's, so each figure is exactly the sum of the links'. Any member of the
 * workspace reads them; another caller 404. Read-only; limited as GET /:code/analytics.
 */
export const domainAnalytics = api(
  { expose: true, auth: true, method: "GET", path: "/workspaces/:id/domains/:host/analytics" },
  async ({ id, host, forwardedFor, ...params }: DomainAnalyticsRequest): Promise<DomainAnalyticsResponse> => {
    requireScope("analytics:read");
    await analyticsReads.count(addressKey(forwardedFor));
    const range = await analyticsRange(params);
    const domain = await readableDomain(id, host, getAuthData()!.userID);
    return { domain, ...answerOf(range), ...(await clickAnalytics(await codesOfDomain(domain), range)) };
  },
);
