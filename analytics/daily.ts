import { api, APIError, type Query } from "encore.dev/api";
import { dayMs, isoDay, parseDay, today } from "./dates/utc-days";
import { db } from "./db";

export interface DailyRequest {
  /** First day, YYYY-MM-DD (UTC); default 29 days before `to`. */
  from?: Query<string>;
  /** Last day, YYYY-MM-DD (UTC); default today. */
  to?: Query<string>;
}

export interface DailyStat {
  date: string;
  urlsCreated: number;
}

export interface DailyResponse {
  days: DailyStat[];
}

/** Longest range one request may ask for. */
const maxDays = 366;

/** Daily counts between two dates, inclusive; days with nothing recorded are left out. */
export const daily = api(
  { expose: true, method: "GET", path: "/analytics/daily" },
  async ({ from, to }: DailyRequest): Promise<DailyResponse> => {
    const last = to === undefined ? today() : parseDay(to, "to");
    const first = from === undefined ? new Date(last.getTime() - 29 * dayMs) : parseDay(from, "from");
    if (first > last) throw APIError.invalidArgument("from must not be after to");
    if ((last.getTime() - first.getTime()) / dayMs + 1 > maxDays) {
      throw APIError.invalidArgument(`a range may span at most ${maxDays} days`);
    }
    const rows = await db.queryAll<{ date: string; urls_created: number }>`
      SELECT to_char(date, 'YYYY-MM-DD') AS date, urls_created FROM daily_stats
      WHERE date BETWEEN ${isoDay(first)}::date AND ${isoDay(last)}::date
      ORDER BY date`;
    return { days: rows.map((r) => ({ date: r.date, urlsCreated: r.urls_created })) };
  },
);
