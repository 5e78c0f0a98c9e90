import { api, APIError } from "encore.dev/api";
import type { Max, Min } from "encore.dev/validate";
import { clickCounter } from "./click-counting/instance";
import { db } from "./db";

export interface TopCodesRequest {
  /** How many codes to return: a whole number from 1 to 100. */
  limit: number & Min<1> & Max<100>;
}

export interface TopCode {
  code: string;
  originalUrl: string;
  clicks: number;
}

export interface TopCodesResponse {
  /** Clicks of every stored URL together. */
  totalClicks: number;
  /** The most-clicked codes, most first; equal counts by code; never-clicked codes are left out. */
  top: TopCode[];
}

/**
 * Click totals for reports (the analytics service's daily report). Internal and
 * read-only: it publishes nothing.
 *
 * Both figures come from a full scan, which is fine once a day. There is
 * deliberately no index on clicks to make it cheaper: the click flush updates that
 * column constantly, and an index on it would rule out PostgreSQL's HOT updates
 * (in place, with no index writes) for every one of those updates.
 */
export const topCodes = api(
  { expose: false, method: "GET", path: "/internal/top-codes" },
  async ({ limit }: TopCodesRequest): Promise<TopCodesResponse> => {
    if (!Number.isInteger(limit)) throw APIError.invalidArgument(`limit must be a whole number, got ${limit}`);
    await clickCounter.flush(); // this instance's counted clicks count too
    // One statement, so the total and the ranking see the same snapshot. Links never
    // clicked are not "most clicked"; with none clicked there is no row, and the total is 0.
    const rows = await db.queryAll<{ code: string; original_url: string; clicks: number; total: number }>`
      SELECT code, original_url, clicks, (SELECT SUM(clicks) FROM urls) AS total
      FROM urls
      WHERE clicks > 0
      ORDER BY clicks DESC, code COLLATE "C"
      LIMIT ${limit}`;
    return {
      totalClicks: rows[0]?.total ?? 0,
      top: rows.map((r) => ({ code: r.code, originalUrl: r.original_url, clicks: r.clicks })),
    };
  },
);
