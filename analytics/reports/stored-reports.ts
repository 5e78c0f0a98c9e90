import log from "encore.dev/log";
import { url } from "~encore/clients";
import { parseDay } from "../dates/utc-days";
import { db } from "../db";

/** How many of the most-clicked codes a report lists. */
const topCount = 10;

export interface ReportedCode {
  code: string;
  originalUrl: string;
  clicks: number;
}

export interface ReportedReferrer {
  value: string;
  humans: number;
}

export interface DailyReport {
  /** The UTC day reported on, YYYY-MM-DD. */
  date: string;
  /** Short URLs created that day, as counted in daily_stats when the report was made. */
  urlsCreated: number;
  /**
   * Clicks on all stored URLs, all time, when the report was generated; not that
   * day's clicks, which are not recorded per day.
   */
  totalClicks: number;
  /**
   * The most-clicked links when the report was generated, most first (at most 10): only
   * anonymous, live links without a password, whose URL is anyone's to see.
   */
  topCodes: ReportedCode[];
  /** That day's clicks by people (bots' clicks left out), on every link. */
  humanClicks: number;
  /**
   * That day's referrers of most human clicks on the links a report may name (anonymous,
   * without a password), most first (at most 5): a host, or "direct".
   */
  topReferrers: ReportedReferrer[];
  generatedAt: Date;
}

/**
 * Builds the report for `date` (YYYY-MM-DD, a UTC day) and stores it, replacing an
 * earlier one for the same day. Click figures come from the url service's API:
 * analytics never reads the url database.
 */
export async function generateReport(date: string): Promise<DailyReport> {
  parseDay(date, "date");
  const stats = await db.queryRow<{ urls_created: number }>`
    SELECT urls_created FROM daily_stats WHERE date = ${date}::date`;
  const [{ totalClicks, top }, day] = await Promise.all([url.topCodes({ limit: topCount }), url.dayClicks({ date })]);
  const topReferrers: ReportedReferrer[] = day.topReferrers.map(({ value, humans }) => ({ value, humans }));
  const topCodes: ReportedCode[] = top.map(({ code, originalUrl, clicks }) => ({ code, originalUrl, clicks }));
  const row = await db.queryRow<ReportRow>`
    INSERT INTO daily_reports (date, urls_created, total_clicks, top_codes, human_clicks, top_referrers, generated_at)
    VALUES (${date}::date, ${stats?.urls_created ?? 0}, ${totalClicks}, ${JSON.stringify(topCodes)}::jsonb,
            ${day.humanClicks}, ${JSON.stringify(topReferrers)}::jsonb, now())
    ON CONFLICT (date) DO UPDATE SET
      urls_created = EXCLUDED.urls_created,
      total_clicks = EXCLUDED.total_clicks,
      top_codes = EXCLUDED.top_codes,
      human_clicks = EXCLUDED.human_clicks,
      top_referrers = EXCLUDED.top_referrers,
      generated_at = EXCLUDED.generated_at
    RETURNING to_char(date, 'YYYY-MM-DD') AS date, urls_created, total_clicks, top_codes, human_clicks, top_referrers, generated_at`;
  const report = reportOf(row!);
  const first = report.topCodes[0];
  log.info(
    `daily report ${date}: ${report.urlsCreated} urls created, ${report.humanClicks} clicks by people, ${report.totalClicks} total clicks, ` +
      `top ${first ? `${first.code} (${first.clicks})` : "none"}`,
  );
  return report;
}

/** The stored report for `date` (YYYY-MM-DD), if one was generated. */
export async function findReport(date: string): Promise<DailyReport | undefined> {
  const row = await db.queryRow<ReportRow>`
    SELECT to_char(date, 'YYYY-MM-DD') AS date, urls_created, total_clicks, top_codes, human_clicks, top_referrers, generated_at
    FROM daily_reports WHERE date = ${date}::date`;
  return row ? reportOf(row) : undefined;
}

interface ReportRow {
  date: string;
  urls_created: number;
  total_clicks: number;
  top_codes: ReportedCode[];
  human_clicks: number;
  top_referrers: ReportedReferrer[];
  generated_at: Date;
}

function reportOf(row: ReportRow): DailyReport {
  return {
    date: row.date,
    urlsCreated: row.urls_created,
    totalClicks: row.total_clicks,
    topCodes: row.top_codes,
    humanClicks: Number(row.human_clicks),
    topReferrers: row.top_referrers,
    generatedAt: row.generated_at,
  };
}
