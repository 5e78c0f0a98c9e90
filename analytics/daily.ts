import { api, APIError, type Query } from "encore.dev/api";
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
const dayMs = 86_400_000;

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

function parseDay(text: string, name: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  // Date.UTC rolls 2026-02-30 over to March; a real date reads back the same.
  if (!day || isoDay(day) !== text) throw APIError.invalidArgument(`${name} must be a date as YYYY-MM-DD, got "${text}"`);
  return day;
}

function today(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}
