import { describe, expect, test } from "vitest";
import { urlDb } from "../url-db";
import { clickAnalytics } from "./query";
import { rollUpClickAnalytics, topValuesPerDay } from "./rollup";

const dayMs = 86_400_000;

/** Hourly rows for `code` at `hour`: one per referrer site01 … siteN, site k with k human clicks, plus `bots` bot clicks. */
async function seedHour(code: string, hour: Date, referrers: number, bots: number): Promise<void> {
  await urlDb.exec`
    INSERT INTO link_clicks_hourly (code, hour, bot, referrer, country, browser, os, device, clicks)
    SELECT ${code}, ${hour}, false, 'site' || lpad(k::text, 2, '0') || '.example', 'GB', 'Chrome', 'Windows', 'desktop', k
    FROM generate_series(1, ${referrers}::int) AS k`;
  if (bots > 0) {
    await urlDb.exec`
      INSERT INTO link_clicks_hourly (code, hour, bot, referrer, country, browser, os, device, clicks)
      VALUES (${code}, ${hour}, true, 'direct', 'unknown', 'curl', 'unknown', 'bot', ${bots})`;
  }
}

describe("rolling hours up into days", () => {
  test("hours older than 35 days become capped days; what the analytics answer stays the same", async () => {
    const now = new Date("2026-11-27T12:00:00Z");
    const oldDay = new Date(now.getTime() - 40 * dayMs);
    const oldHours = [3, 17].map((h) => new Date(Date.UTC(oldDay.getUTCFullYear(), oldDay.getUTCMonth(), oldDay.getUTCDate(), h)));
    const recent = new Date(now.getTime() - 2 * dayMs);
    // 60 referrers an hour in the old day: more than a day keeps, so the rest become other.
    for (const hour of oldHours) await seedHour("roll01", hour, 60, 5);
    await seedHour("roll01", recent, 3, 1);
    await seedHour("roll02", oldHours[0], 1, 0);

    const range = { from: new Date(now.getTime() - 60 * dayMs), to: now, interval: "day" as const, tz: "UTC" };
    const before = await clickAnalytics(["roll01"], range);

    expect(await rollUpClickAnalytics(now)).toBe(2 * 61 + 1); // the old rows of both links, none of the recent ones
    const hourly = await urlDb.queryAll<{ hour: Date }>`SELECT DISTINCT hour FROM link_clicks_hourly WHERE code = 'roll01'`;
    expect(hourly.map((r) => r.hour)).toEqual([recent]);

    const days = await urlDb.queryAll<{ dimension: string; value: string; humans: number; bots: number }>`
      SELECT dimension, value, humans::int, bots::int FROM link_clicks_daily WHERE code = 'roll01' ORDER BY dimension, value`;
    const all = days.filter((d) => d.dimension === "all");
    expect(all).toEqual([{ dimension: "all", value: "", humans: 2 * ((60 * 61) / 2), bots: 10 }]);
    const referrers = days.filter((d) => d.dimension === "referrer");
    expect(referrers).toHaveLength(topValuesPerDay + 1); // the top 50 and other
    const other = referrers.find((r) => r.value === "")!;
    // 61 referrers that day: the 11 smallest are other, site01 … site10 (1 … 10 clicks an
    // hour, twice) and direct (the bots' 10 clicks).
    expect(other).toMatchObject({ humans: 2 * ((10 * 11) / 2), bots: 10 });
    for (const dimension of ["referrer", "country", "browser", "os", "device"]) {
      const total = days.filter((d) => d.dimension === dimension).reduce((n, d) => n + d.humans + d.bots, 0);
      expect(total, dimension).toBe(all[0].humans + all[0].bots);
    }

    const after = await clickAnalytics(["roll01"], range);
    expect(after.totals).toEqual(before.totals);
    expect(after.series).toEqual(before.series);
    expect(after.countries).toEqual(before.countries);
    expect(after.referrers.top).toEqual(before.referrers.top);
    expect(after.referrers.other).toEqual(before.referrers.other);

    // A second run finds nothing left to move, and changes nothing.
    expect(await rollUpClickAnalytics(now)).toBe(0);
    expect((await clickAnalytics(["roll01"], range)).totals).toEqual(before.totals);
  });

  test("late rows for a day already rolled up are added to it", async () => {
    const now = new Date("2026-11-27T12:00:00Z");
    const hour = new Date(Date.UTC(2026, 9, 1, 10));
    await seedHour("roll03", hour, 2, 0);
    await rollUpClickAnalytics(now);
    await seedHour("roll03", hour, 2, 4); // a journal replayed late
    await rollUpClickAnalytics(now);
    const all = await urlDb.queryRow<{ humans: number; bots: number }>`
      SELECT humans::int, bots::int FROM link_clicks_daily WHERE code = 'roll03' AND dimension = 'all'`;
    expect(all).toEqual({ humans: 6, bots: 4 });
  });

  test("a day keeps each rule's clicks, and as no rule the rest; the rules breakdown stays the same", async () => {
    const now = new Date("2026-11-27T12:00:00Z");
    const hour = new Date(Date.UTC(2026, 9, 2, 8));
    await seedHour("roll04", hour, 4, 3); // 10 human clicks, 3 bot clicks
    await urlDb.exec`
      INSERT INTO link_clicks_rules_hourly (code, hour, bot, rule, clicks)
      VALUES ('roll04', ${hour}, false, 'ruleA123', 6), ('roll04', ${hour}, true, 'ruleB456', 2)`;
    const range = { from: new Date(Date.UTC(2026, 9, 1)), to: now, interval: "day" as const, tz: "UTC" };
    const before = await clickAnalytics(["roll04"], range);
    expect(before.rules).toEqual({
      top: [
        { value: "ruleA123", humans: 6, bots: 0 },
        { value: "ruleB456", humans: 0, bots: 2 },
      ],
      other: { humans: 4, bots: 1 },
    });

    await rollUpClickAnalytics(now);
    expect(await urlDb.queryRow`SELECT 1 FROM link_clicks_rules_hourly WHERE code = 'roll04'`).toBeNull();
    const rules = await urlDb.queryAll<{ value: string; humans: number; bots: number }>`
      SELECT value, humans::int, bots::int FROM link_clicks_daily WHERE code = 'roll04' AND dimension = 'rule' ORDER BY value`;
    expect(rules).toEqual([
      { value: "", humans: 4, bots: 1 },
      { value: "ruleA123", humans: 6, bots: 0 },
      { value: "ruleB456", humans: 0, bots: 2 },
    ]);
    expect((await clickAnalytics(["roll04"], range)).rules).toEqual(before.rules);
  });
});
