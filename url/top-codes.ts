import { api, APIError } from "encore.dev/api";
import type { Max, Min } from "encore.dev/validate";
import { clickCounter } from "./click-counting/instance";
import { db } from "./db";
import { reportable, reportableAndLive } from "./reportable";

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
  /**
   * The most-clicked links a report may name, most first; equal counts by code. Only
   * anonymous, live links without a password (links/reportable.ts); never-clicked ones are
   * left out.
   */
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
    // clicked are not "most clicked"; with none to name, the one row has the total alone.
    const rows = await db.rawQueryAll<{ code: string | null; original_url: string; clicks: number; total: number }>(
      `SELECT t.code, t.original_url, t.clicks, s.total
       FROM (SELECT COALESCE(SUM(clicks), 0) AS total FROM urls) AS s
       LEFT JOIN LATERAL (
         SELECT u.code, u.original_url, u.clicks FROM urls u
         WHERE u.clicks > 0 AND ${reportableAndLive("u")}
         ORDER BY u.clicks DESC, u.code COLLATE "C"
         LIMIT $1
       ) AS t ON true
       ORDER BY t.clicks DESC, t.code COLLATE "C"`,
      limit,
    );
    return {
      totalClicks: rows[0]?.total ?? 0,
      top: rows.filter((r) => r.code !== null).map((r) => ({ code: r.code!, originalUrl: r.original_url, clicks: r.clicks })),
    };
  },
);

export interface ReportableCodesRequest {
  /** Codes a report named: at most 100. */
  codes: string[];
}

export interface ReportableCodesResponse {
  /** Those of `codes` a report may still name (links/reportable.ts), in no particular order. */
  codes: string[];
}

/**
 * Which of the codes a stored report named it may still show: a link since disabled, or
 * named by a report made before reports left out password and owned links, is not. For
 * the analytics service, when it answers a report. Internal and read-only.
 */
export const reportableCodes = api(
  { expose: false, method: "POST", path: "/internal/reportable-codes" },
  async ({ codes }: ReportableCodesRequest): Promise<ReportableCodesResponse> => {
    if (codes.length > 100) throw APIError.invalidArgument(`codes must hold at most 100 codes, got ${codes.length}`);
    const rows = await db.rawQueryAll<{ code: string }>(`SELECT u.code FROM urls u WHERE u.code = ANY($1::text[]) AND ${reportable("u")}`, codes);
    return { codes: rows.map((r) => r.code) };
  },
);
