export type Interval = "hour" | "day";
export type RangeKey = "24h" | "7d" | "30d" | "90d" | "all";

const dayMs = 24 * 60 * 60 * 1000;
// The API refuses hourly buckets over a longer range (its hourly rows end after 35 days).
const longestHourlyMs = 31 * dayMs;

/** The ranges a reader picks from, as the buttons name them; "all" starts when the link was made. */
export const ranges: Record<RangeKey, { label: string; ms?: number }> = {
  "24h": { label: "24 hours", ms: dayMs },
  "7d": { label: "7 days", ms: 7 * dayMs },
  "30d": { label: "30 days", ms: 30 * dayMs },
  "90d": { label: "90 days", ms: 90 * dayMs },
  all: { label: "All time" },
};

export const intervals: Record<Interval, string> = { hour: "Hour", day: "Day" };

export function hourAllowed(range: RangeKey): boolean {
  const ms = ranges[range].ms;
  return ms !== undefined && ms <= longestHourlyMs;
}

export interface AnalyticsQuery {
  from: string;
  interval: Interval;
  tz: string;
}

/** The reader's own time zone: days start at their midnight. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * The query for a range. `to` is left to the server's clock, so "all" (from the link's
 * creation, a server time) is never refused as from >= to by a client clock running behind.
 */
export function analyticsQuery(range: RangeKey, interval: Interval, createdAt: string, now = Date.now()): AnalyticsQuery {
  const ms = ranges[range].ms;
  const from = ms === undefined ? createdAt : new Date(now - ms).toISOString();
  return { from, interval: hourAllowed(range) ? interval : "day", tz: browserTimeZone() };
}
