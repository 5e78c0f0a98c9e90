import { describe, expect, test } from "vitest";
import { describeSchedule, latestTick, nextTick } from "./ticks.ts";

const at = (iso: string) => new Date(iso);

describe("ticks of an `every` schedule", () => {
  const every90 = { kind: "every", minutes: 90 } as const;

  test("fall on multiples of the interval since midnight UTC", () => {
    expect(nextTick(every90, at("2026-11-21T00:00:00Z"))).toEqual(at("2026-11-21T01:30:00Z"));
    expect(nextTick(every90, at("2026-11-21T01:29:59.999Z"))).toEqual(at("2026-11-21T01:30:00Z"));
    expect(nextTick(every90, at("2026-11-21T22:30:00Z"))).toEqual(at("2026-11-22T00:00:00Z"));
  });

  test("the next tick is strictly later; the latest includes the instant itself", () => {
    expect(nextTick(every90, at("2026-11-21T03:00:00Z"))).toEqual(at("2026-11-21T04:30:00Z"));
    expect(latestTick(every90, at("2026-11-21T03:00:00Z"))).toEqual(at("2026-11-21T03:00:00Z"));
    expect(latestTick(every90, at("2026-11-21T02:59:59.999Z"))).toEqual(at("2026-11-21T01:30:00Z"));
  });
});

describe("ticks of a cron expression", () => {
  const daily3am = { kind: "cron", expression: "0 3 * * *" } as const;

  test("are read in UTC", () => {
    expect(nextTick(daily3am, at("2026-11-21T02:59:00Z"))).toEqual(at("2026-11-21T03:00:00Z"));
    expect(nextTick(daily3am, at("2026-11-21T03:00:00Z"))).toEqual(at("2026-11-22T03:00:00Z"));
    expect(latestTick(daily3am, at("2026-11-21T03:00:00Z"))).toEqual(at("2026-11-21T03:00:00Z"));
    expect(latestTick(daily3am, at("2026-11-21T02:59:59.999Z"))).toEqual(at("2026-11-20T03:00:00Z"));
  });

  test("follow day-of-week and month fields across a year end", () => {
    const weekdays9 = { kind: "cron", expression: "0 9 * * 1-5" } as const;
    // 2026-12-31 is a Thursday; then Friday, then the weekend is skipped.
    expect(nextTick(weekdays9, at("2026-12-31T09:00:00Z"))).toEqual(at("2027-01-01T09:00:00Z"));
    expect(nextTick(weekdays9, at("2027-01-01T09:00:00Z"))).toEqual(at("2027-01-04T09:00:00Z"));
  });
});

test("schedules are described as operators wrote them", () => {
  expect(describeSchedule({ kind: "cron", expression: "0 3 * * *" })).toBe("0 3 * * *");
  expect(describeSchedule({ kind: "every", minutes: 120 })).toBe("every 2h");
  expect(describeSchedule({ kind: "every", minutes: 90 })).toBe("every 90m");
});
