import type { analytics } from "./client.gen";

const dayMs = 24 * 60 * 60 * 1000;

/** YYYY-MM-DD in UTC, the analytics service's days. */
export function isoDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10);
}

/** The last `count` UTC days, oldest first, ending today. */
export function lastDays(count: number, now = Date.now()): string[] {
  return Array.from({ length: count }, (_, i) => isoDay(now - (count - 1 - i) * dayMs));
}

/** Every day of `days` with its count: the API leaves out days with nothing created. */
export function fillDays(days: string[], stats: analytics.DailyStat[]): analytics.DailyStat[] {
  const counts = new Map(stats.map((s) => [s.date, s.urlsCreated]));
  return days.map((date) => ({ date, urlsCreated: counts.get(date) ?? 0 }));
}
