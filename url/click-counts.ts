import { api } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { clickCounter } from "./click-counting/instance";
import { db } from "./db";

export interface ClickCountsRequest {
  /** Codes whose clicks to read, exactly as stored: at most a page's worth. */
  codes: string[] & MaxLen<200>;
}

export interface ClickCountsResponse {
  /** One per code that has a row (deleted links included), in no particular order. */
  counts: { code: string; clicks: number }[];
}

/**
 * Exact clicks of some links, as GET /:code/stats counts them: stored clicks plus those this
 * instance answered and has not written yet (ClickCounter.consistentRead). For the links
 * service, which shows a link's clicks beside what only it reads, and which cannot hold the
 * counter's unwritten clicks: they live in the memory of the service that answers
 * redirects. Private: other services call it through ~encore/clients.
 */
export const clickCounts = api(
  { expose: false, method: "POST", path: "/internal/click-counts" },
  async ({ codes }: ClickCountsRequest): Promise<ClickCountsResponse> => {
    if (codes.length === 0) return { counts: [] };
    return clickCounter.consistentRead(async () => {
      const rows = await db.queryAll<{ code: string; clicks: number }>`SELECT code, clicks FROM urls WHERE code = ANY(${codes}::text[])`;
      return { counts: rows.map((r) => ({ code: r.code, clicks: r.clicks + clickCounter.pending(r.code) })) };
    });
  },
);
