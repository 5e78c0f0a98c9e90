import { api, APIError } from "encore.dev/api";
import { parseDay } from "./dates/utc-days";
import { findReport, type DailyReport } from "./reports/stored-reports";

/** The stored daily report for a UTC day (YYYY-MM-DD). */
export const getReport = api(
  { expose: true, method: "GET", path: "/analytics/reports/:date" },
  async ({ date }: { date: string }): Promise<DailyReport> => {
    parseDay(date, "date");
    const report = await findReport(date);
    if (!report) throw APIError.notFound(`no report for ${date}`);
    return report;
  },
);
