import { api, APIError } from "encore.dev/api";
import { parseDay } from "./dates/utc-days";
import { asShownNow } from "./reports/reportable";
import { findReport, type DailyReport } from "./reports/stored-reports";

/**
 * The stored daily report for a UTC day (YYYY-MM-DD). Its top codes are anonymous links
 * without a password that are neither deleted nor disabled now (reports/reportable.ts).
 */
export const getReport = api(
  { expose: true, method: "GET", path: "/analytics/reports/:date" },
  async ({ date }: { date: string }): Promise<DailyReport> => {
    parseDay(date, "date");
    const report = await findReport(date);
    if (!report) throw APIError.notFound(`no report for ${date}`);
    return asShownNow(report);
  },
);
