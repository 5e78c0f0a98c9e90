import { url } from "~encore/clients";
import type { DailyReport } from "./stored-reports";

/**
 * `report` as it may be shown now: its top codes only those the url service says a report
 * may still name (anonymous, without a password, neither deleted nor disabled). A report
 * generated before reports left out password and owned links named them with their URLs,
 * and a link named since may have been disabled; such codes are left out of the answer,
 * though the stored report keeps them.
 */
export async function asShownNow(report: DailyReport): Promise<DailyReport> {
  if (report.topCodes.length === 0) return report;
  const { codes } = await url.reportableCodes({ codes: report.topCodes.map((t) => t.code) });
  const shown = new Set(codes);
  return { ...report, topCodes: report.topCodes.filter((t) => shown.has(t.code)) };
}
