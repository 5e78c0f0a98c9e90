import log from "encore.dev/log";
import { SQLDatabase } from "encore.dev/storage/sqldb";
import { describe, expect, test, vi } from "vitest";
import { db } from "./db";
import { dailyReport } from "./daily-report";
import { generateReport } from "./reports/stored-reports";
import { getReport } from "./get-report";

// The url service's database, only to seed clicks: the report itself asks the url API.
const urlDb = SQLDatabase.named("url");

async function seedCreated(date: string, urlsCreated: number): Promise<void> {
  await db.exec`INSERT INTO daily_stats (date, urls_created) VALUES (${date}::date, ${urlsCreated})`;
}

/** 12 urls, rp0001 … rp0012, with clicks 10, 20, … 120 (one tie: rp0012 and rp0011 both 110). */
async function seedClicks(): Promise<void> {
  await urlDb.exec`
    INSERT INTO urls (code, original_url, clicks)
    SELECT 'rp' || lpad(i::text, 4, '0'), 'https://report.example/' || i, least(i, 11) * 10
    FROM generate_series(1, 12) AS i`;
}

describe("daily report", () => {
  test("counts the day's new urls, all clicks so far, and the 10 most-clicked codes", async () => {
    await seedCreated("2026-11-20", 12);
    await seedCreated("2026-11-21", 99); // another day: not this report's
    await seedClicks();
    const info = vi.spyOn(log, "info");
    try {
      const report = await generateReport("2026-11-20");
      expect(report).toMatchObject({ date: "2026-11-20", urlsCreated: 12, totalClicks: 770 });
      expect(report.topCodes).toHaveLength(10);
      expect(report.topCodes.map((t) => [t.code, t.clicks])).toEqual([
        ["rp0011", 110],
        ["rp0012", 110],
        ["rp0010", 100],
        ["rp0009", 90],
        ["rp0008", 80],
        ["rp0007", 70],
        ["rp0006", 60],
        ["rp0005", 50],
        ["rp0004", 40],
        ["rp0003", 30],
      ]);
      expect(report.topCodes[0]!.originalUrl).toBe("https://report.example/11");
      expect(info).toHaveBeenCalledWith("daily report 2026-11-20: 12 urls created, 0 clicks by people, 770 total clicks, top rp0011 (110)");
    } finally {
      info.mockRestore();
    }
  });

  test("the day's clicks by people and its top referrers, from the url service's click analytics", async () => {
    await urlDb.exec`
      INSERT INTO urls (code, original_url, clicks)
      SELECT 'dr000' || i, 'https://day.example/' || i, 0 FROM generate_series(1, 3) AS i`;
    // Rows as the click flush writes them: that day (UTC) and the days around it.
    await urlDb.exec`
      INSERT INTO link_clicks_hourly (code, hour, bot, referrer, country, browser, os, device, clicks) VALUES
        ('dr0001', '2026-11-19 23:00Z', false, 'before.example', 'GB', 'Chrome', 'Windows', 'desktop', 100),
        ('dr0001', '2026-11-20 00:00Z', false, 'news.ycombinator.com', 'GB', 'Chrome', 'Windows', 'desktop', 7),
        ('dr0002', '2026-11-20 13:00Z', false, 'news.ycombinator.com', 'US', 'Firefox', 'Linux', 'desktop', 5),
        ('dr0002', '2026-11-20 13:00Z', false, 'direct', 'US', 'Firefox', 'Linux', 'desktop', 9),
        ('dr0002', '2026-11-20 14:00Z', false, 't.co', 'US', 'Firefox', 'Linux', 'desktop', 3),
        ('dr0002', '2026-11-20 15:00Z', true, 'crawler.example', 'unknown', 'curl', 'unknown', 'bot', 50),
        ('dr0003', '2026-11-20 23:00Z', false, 'a.example', 'NL', 'Chrome', 'Windows', 'desktop', 1),
        ('dr0003', '2026-11-20 23:00Z', false, 'b.example', 'NL', 'Chrome', 'Windows', 'desktop', 1),
        ('dr0003', '2026-11-20 23:00Z', false, 'c.example', 'NL', 'Chrome', 'Windows', 'desktop', 1),
        ('dr0003', '2026-11-21 00:00Z', false, 'after.example', 'NL', 'Chrome', 'Windows', 'desktop', 100)`;
    const report = await generateReport("2026-11-20");
    expect(report.humanClicks).toBe(7 + 5 + 9 + 3 + 3); // the bots' 50 and the neighbouring days' left out
    expect(report.topReferrers).toEqual([
      { value: "news.ycombinator.com", humans: 12 },
      { value: "direct", humans: 9 },
      { value: "t.co", humans: 3 },
      { value: "a.example", humans: 1 },
      { value: "b.example", humans: 1 },
    ]);
    expect(await getReport({ date: "2026-11-20" })).toEqual(report);
  });

  test("a day with nothing recorded reports zero urls created", async () => {
    expect((await generateReport("2026-01-01")).urlsCreated).toBe(0);
  });

  test("a rerun replaces the day's report with fresh figures", async () => {
    await seedCreated("2026-10-01", 3);
    await urlDb.exec`INSERT INTO urls (code, original_url, clicks) VALUES ('rerun1', 'https://rerun.example', 0)`;
    const first = await generateReport("2026-10-01");
    await urlDb.exec`UPDATE urls SET clicks = 5000 WHERE code = 'rerun1'`;
    await db.exec`UPDATE daily_stats SET urls_created = 4 WHERE date = '2026-10-01'`;

    const second = await generateReport("2026-10-01");
    expect(second.totalClicks).toBe(first.totalClicks + 5000);
    expect(second.urlsCreated).toBe(4);
    expect(second.topCodes[0]).toEqual({ code: "rerun1", originalUrl: "https://rerun.example", clicks: 5000 });
    expect(second.generatedAt.getTime()).toBeGreaterThanOrEqual(first.generatedAt.getTime());
    const rows = await db.queryRow<{ n: number }>`SELECT count(*) AS n FROM daily_reports WHERE date = '2026-10-01'`;
    expect(rows!.n).toBe(1);
    expect(await getReport({ date: "2026-10-01" })).toEqual(second);
  });

  test("the job reports on the previous UTC day", async () => {
    const yesterday = () => new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const before = yesterday();
    const { date } = await dailyReport();
    expect([before, yesterday()]).toContain(date); // either side of midnight UTC
    expect((await getReport({ date })).date).toBe(date);
  });
});

describe("GET /analytics/reports/:date", () => {
  test("returns the stored report", async () => {
    const stored = await generateReport("2026-11-22");
    expect(await getReport({ date: "2026-11-22" })).toEqual(stored);
  });

  test("a day without a report is not_found", async () => {
    await expect(getReport({ date: "2020-01-01" })).rejects.toMatchObject({
      code: "not_found",
      message: "no report for 2020-01-01",
    });
  });

  test.each(["2026-02-30", "2026-13-01", "20261120", "2026-1-5", "yesterday", ""])(
    "a malformed or impossible date (%j) is invalid_argument naming the parameter",
    async (date) => {
      await expect(getReport({ date })).rejects.toMatchObject({
        code: "invalid_argument",
        message: `date must be a date as YYYY-MM-DD, got "${date}"`,
      });
    },
  );
});
