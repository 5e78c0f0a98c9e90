import { api } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { requireScope } from "../access/scopes";
import { addressKey } from "../limits/address";
import { analyticsReads } from "../limits/analytics-reads";
import { answerOf, type RangeAnswer, type RangeRequest } from "./click-analytics";
import { codesOfTag, readableTag, type TagRef } from "./link-analytics/tag-links";
import { clickAnalytics } from "./link-analytics/query";
import type { ClickAnalytics } from "./click-reads/shapes";
import { analyticsRange } from "./click-reads/range";

export interface TagAnalyticsRequest extends RangeRequest {
  /** The workspace's id (a personal workspace's is its account's id). */
  id: string;
  tagId: number;
}

export interface TagAnalyticsResponse extends RangeAnswer, ClickAnalytics {
  tag: TagRef;
}

/**
 * A tag's click analytics: GET /:code/analytics's totals, series and breakdowns summed over
 * every link that has the tag now (deleted ones included), by the same statements as one
 * link's (link-analytics/query.ts over the tag's codes), so each total, series point and
 * value is exactly the sum of the links'. Any member of the workspace reads them; another
 * caller 404. Read-only; limited as GET /:code/analytics.
 */
export const tagAnalytics = api(
  { expose: true, auth: true, method: "GET", path: "/workspaces/:id/tags/:tagId/analytics" },
  async ({ id, tagId, forwardedFor, ...params }: TagAnalyticsRequest): Promise<TagAnalyticsResponse> => {
    requireScope("analytics:read");
    await analyticsReads.count(addressKey(forwardedFor));
    const range = await analyticsRange(params);
    const tag = await readableTag(id, tagId, getAuthData()!.userID);
    return { tag, ...answerOf(range), ...(await clickAnalytics(await codesOfTag(tag.id), range)) };
  },
);
