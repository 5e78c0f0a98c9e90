import { CronExpressionParser } from "cron-parser";
import type { CronSchedule } from "../meta/types.ts";

const minuteMs = 60_000;

/** The first tick strictly after `after`. */
export function nextTick(schedule: CronSchedule, after: Date): Date {
  if (schedule.kind === "every") {
    // Ticks are the multiples of the interval since midnight UTC; since the
    // interval divides 24 h, that is the same as multiples since the epoch.
    const step = schedule.minutes * minuteMs;
    return new Date((Math.floor(after.getTime() / step) + 1) * step);
  }
  return CronExpressionParser.parse(schedule.expression, { currentDate: after, tz: "UTC" }).next().toDate();
}

/** The last tick at or before `at`. */
export function latestTick(schedule: CronSchedule, at: Date): Date {
  if (schedule.kind === "every") {
    const step = schedule.minutes * minuteMs;
    return new Date(Math.floor(at.getTime() / step) * step);
  }
  // prev() is strictly before its start; ticks fall on whole minutes, so 1 ms later includes `at`.
  return CronExpressionParser.parse(schedule.expression, { currentDate: new Date(at.getTime() + 1), tz: "UTC" })
    .prev()
    .toDate();
}

/** "every 30m" or the cron expression, as operators read it. */
export function describeSchedule(schedule: CronSchedule): string {
  if (schedule.kind === "cron") return schedule.expression;
  const m = schedule.minutes;
  return m % 60 === 0 ? `every ${m / 60}h` : `every ${m}m`;
}
