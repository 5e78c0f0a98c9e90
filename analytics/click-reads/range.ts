import { APIError } from "encore.dev/api";
import { knownTimeZone } from "./time-zones";

export type Interval = "hour" | "day";

/** How far back hourly rows are kept before the rollup job makes days of them (link-analytics/rollup.ts, workspace-analytics/rollup.ts). */
export const hourlyRetentionDays = 35;
/** Hour buckets are offered over ranges of at most this, all of it inside the hourly retention. */
const longestHourlyRangeDays = 31;
/** The longest range, in days: about ten years of day buckets. */
const longestRangeDays = 3660;
const defaultRangeDays = 30;
const dayMs = 86_400_000;

/** A checked range of an analytics request. */
export interface AnalyticsRange {
  readonly from: Date;
  readonly to: Date;
  readonly interval: Interval;
  readonly tz: string;
}

export interface RangeParams {
  from?: string;
  to?: string;
  interval?: string;
  tz?: string;
}

/** A date (midnight UTC) or a date-time with its zone: never a local time the server would have to guess. */
const isoInstant = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * Checks an analytics request's range, with 400 invalid_argument naming the parameter.
 * Defaults: to now, from 30 days before `to`, interval day, tz UTC.
 */
export async function analyticsRange(params: RangeParams, now = new Date()): Promise<AnalyticsRange> {
  const to = params.to === undefined ? now : instant("to", params.to);
  const from = params.from === undefined ? new Date(to.getTime() - defaultRangeDays * dayMs) : instant("from", params.from);
  if (from >= to) throw APIError.invalidArgument("from must be earlier than to");
  const interval = params.interval ?? "day";
  if (interval !== "hour" && interval !== "day") throw APIError.invalidArgument(`interval must be "hour" or "day", got "${interval}"`);
  const tz = params.tz ?? "UTC";
  if (!(await knownTimeZone(tz))) throw APIError.invalidArgument(`tz must be an IANA time zone name (such as Europe/Paris), got "${tz}"`);
  const days = (to.getTime() - from.getTime()) / dayMs;
  if (days > longestRangeDays) throw APIError.invalidArgument(`the range from..to must be at most ${longestRangeDays} days`);
  if (interval === "hour") {
    if (days > longestHourlyRangeDays) throw APIError.invalidArgument(`interval=hour takes a range of at most ${longestHourlyRangeDays} days; use interval=day`);
    if (from.getTime() < now.getTime() - longestHourlyRangeDays * dayMs) {
      throw APIError.invalidArgument(`interval=hour covers the last ${longestHourlyRangeDays} days (older clicks are kept per day): from is earlier; use interval=day`);
    }
  }
  return { from, to, interval, tz };
}

function instant(name: string, text: string): Date {
  const ms = isoInstant.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) throw APIError.invalidArgument(`${name} must be an ISO 8601 date (2026-11-01) or date-time with a zone (2026-11-01T09:30:00Z), got "${text}"`);
  return new Date(ms);
}
