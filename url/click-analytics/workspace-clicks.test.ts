import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { describe, expect, test } from "vitest";
import { clickKey } from "../../click-counter/click-keys";
import { db } from "../db";
import { encodeDetails, hourOf, type ClickDetails } from "../../visitors/dimensions";
import { clickWriter } from "../click-counting/store";
import { randomUUID } from "node:crypto";
import { recentRowsPerHour } from "./workspace-clicks";
import { flushClicks, insertLinks, type Clicks } from "../../test/support/click-rows";

const hour = hourOf(Date.now());
const chrome: ClickDetails = { hour, bot: false, referrer: "t.co", country: "GB", browser: "Chrome", os: "Windows", device: "desktop" };

async function recent(workspace: string) {
  return db.queryAll<{ bot: boolean; referrer: string; country: string; rule: string; clicks: number }>`
    SELECT bot, referrer, country, rule, clicks::int FROM workspace_clicks_recent WHERE workspace_id = ${workspace} ORDER BY referrer, country, rule, bot`;
}

describe("a flush adds workspace links' clicks to their workspaces' rows", () => {
  test("one row per workspace, hour and combination of values, the rule included; anonymous links add none", async () => {
    await insertLinks("ws-flush-a", ["wsf01", "wsf02"]);
    await insertLinks("ws-flush-b", ["wsf03"]);
    await insertLinks(null, ["wsf04"]);
    await flushClicks([
      ["wsf01", chrome, 2],
      ["wsf02", chrome, 3], // the same visitors on another link of the workspace: the same row
      ["wsf02", { ...chrome, bot: true, browser: "curl", os: "unknown", device: "bot" }, 1],
      ["wsf01", { ...chrome, country: "US", rule: "r1" }, 4],
      ["wsf03", chrome, 5],
      ["wsf04", chrome, 6],
    ]);
    expect(await recent("ws-flush-a")).toEqual([
      { bot: false, referrer: "t.co", country: "GB", rule: "", clicks: 5 },
      { bot: true, referrer: "t.co", country: "GB", rule: "", clicks: 1 },
      { bot: false, referrer: "t.co", country: "US", rule: "r1", clicks: 4 },
    ]);
    expect(await recent("ws-flush-b")).toEqual([{ bot: false, referrer: "t.co", country: "GB", rule: "", clicks: 5 }]);
    const rows = await db.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM workspace_clicks_recent WHERE workspace_id NOT LIKE 'ws-%'`;
    expect(rows!.n).toBe(0);

    await flushClicks([["wsf03", chrome, 1]]);
    expect(await recent("ws-flush-b")).toEqual([{ bot: false, referrer: "t.co", country: "GB", rule: "", clicks: 6 }]);
  });

  test("the click writer adds a batch's workspace links' clicks to their workspace's rows (the links' rows tell it a batch has some), and a batch of anonymous links adds none", async () => {
    await insertLinks("ws-writer", ["wsw01"]);
    await insertLinks(null, ["wsw02", "wsw03"]);
    const write = clickWriter(randomUUID(), 5000);
    const key = (code: string) => clickKey(code, encodeDetails(chrome));
    await write(new Map([[key("wsw01"), 2], [key("wsw02"), 3]]), 1, []);
    expect(await recent("ws-writer")).toEqual([{ bot: false, referrer: "t.co", country: "GB", rule: "", clicks: 2 }]);
    const before = await db.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM workspace_clicks_recent`;
    await write(new Map([[key("wsw02"), 1], [key("wsw03"), 4]]), 2, []);
    expect(await db.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM workspace_clicks_recent`).toEqual(before);
    const clicks = await db.queryAll<{ code: string; clicks: number }>`SELECT code, clicks FROM urls WHERE code LIKE 'wsw%' ORDER BY code`;
    expect(clicks).toEqual([
      { code: "wsw01", clicks: 2 },
      { code: "wsw02", clicks: 4 },
      { code: "wsw03", clicks: 4 },
    ]);
  });

  test(`a workspace's hour holds at most ${recentRowsPerHour} combinations, then its row of others; every click counted`, async () => {
    await insertLinks("ws-flush-bound", ["wsb01", "wsb02"]);
    // More referrers than the bound over two links (each link keeps its own 50), in two batches.
    const referrers = (from: number, to: number, code: string): Clicks[] =>
      Array.from({ length: to - from }, (_, k) => [code, { ...chrome, referrer: `site${from + k}.example` }, 1 + ((from + k) % 3)]);
    await flushClicks([...referrers(0, 600, "wsb01"), ...referrers(600, 900, "wsb02")]);
    let rows = await recent("ws-flush-bound");
    expect(rows).toHaveLength(900);
    await flushClicks([...referrers(900, 1300, "wsb02"), ["wsb01", { ...chrome, referrer: "site0.example" }, 10]]);
    rows = await recent("ws-flush-bound");
    const sum = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => 1 + ((from + k) % 3)).reduce((a, b) => a + b, 0);
    expect(rows.filter((r) => r.referrer !== "")).toHaveLength(recentRowsPerHour);
    // A stored combination keeps its row past the bound.
    expect(rows.find((r) => r.referrer === "site0.example")!.clicks).toBe(1 + 10);
    expect(rows.filter((r) => r.referrer === "")).toEqual([{ bot: false, referrer: "", country: "", rule: "", clicks: expect.any(Number) }]);
    expect(rows.reduce((n, r) => n + r.clicks, 0)).toBe(sum(0, 1300) + 10);
  });
});

describe("url migration 20", () => {
  test("counts the clicks stored before it in each workspace's hours and days, 50 values a dimension, 'all' every click", async () => {
    await db.exec`SELECT 1`; // the database exists once a query got through
    const dir = path.join(import.meta.dirname, "..", "migrations");
    const files = readdirSync(dir).filter((f) => /^\d+_.*\.up\.sql$/.test(f)).sort((a, b) => parseInt(a) - parseInt(b));
    // The migrations applied by hand in a schema of their own, to stop before 20.
    const client = new pg.Client({ connectionString: db.connectionString });
    await client.connect();
    try {
      await client.query("CREATE SCHEMA ws_backfill; SET search_path = ws_backfill, public");
      for (const file of files.filter((f) => parseInt(f) < 20)) await client.query(readFileSync(path.join(dir, file), "utf8"));
      await client.query(`INSERT INTO urls (code, original_url, workspace_id) VALUES ('bf01', 'https://example.com/', 'w1'), ('bf02', 'https://example.com/', 'w1'), ('bf03', 'https://example.com/', NULL)`);
      // An hour of w1's two links with 60 referrers (the 50 most clicked kept), one anonymous
      // link's clicks, a rule's, and an old day's rows.
      await client.query(`
        INSERT INTO link_clicks_hourly (code, hour, bot, referrer, country, browser, os, device, clicks)
        SELECT CASE WHEN k % 2 = 0 THEN 'bf01' ELSE 'bf02' END, '2026-11-01T10:00:00Z'::timestamptz, false, 'site' || k, 'GB', 'Chrome', 'Windows', 'desktop', k
        FROM generate_series(1, 60) AS k
        UNION ALL SELECT 'bf01', '2026-11-01T10:00:00Z', true, '', 'unknown', 'curl', 'unknown', 'bot', 7
        UNION ALL SELECT 'bf03', '2026-11-01T10:00:00Z', false, 'site1', 'GB', 'Chrome', 'Windows', 'desktop', 100`);
      await client.query(`INSERT INTO link_clicks_rules_hourly (code, hour, bot, rule, clicks) VALUES ('bf01', '2026-11-01T10:00:00Z', false, 'r1', 5)`);
      await client.query(`
        INSERT INTO link_clicks_daily (code, dimension, day, value, humans, bots) VALUES
          ('bf01', 'all', '2026-09-01', '', 9, 1), ('bf02', 'all', '2026-09-01', '', 1, 0),
          ('bf01', 'country', '2026-09-01', 'GB', 4, 1), ('bf02', 'country', '2026-09-01', 'GB', 1, 0), ('bf01', 'country', '2026-09-01', '', 5, 0),
          ('bf01', 'rule', '2026-09-01', '', 9, 1), ('bf03', 'all', '2026-09-01', '', 50, 0)`);

      await client.query("BEGIN");
      await client.query(readFileSync(path.join(dir, files.find((f) => parseInt(f) === 20)!), "utf8"));
      await client.query("COMMIT");

      const hourly = (await client.query<{ dimension: string; value: string; humans: string; bots: string }>(
        "SELECT dimension, value, humans, bots FROM workspace_clicks_hourly WHERE workspace_id = 'w1' ORDER BY dimension, value",
      )).rows.map((r) => ({ dimension: r.dimension, value: r.value, humans: Number(r.humans), bots: Number(r.bots) }));
      expect(hourly.filter((r) => r.dimension === "all")).toEqual([{ dimension: "all", value: "", humans: (60 * 61) / 2, bots: 7 }]);
      const referrers = hourly.filter((r) => r.dimension === "referrer");
      expect(referrers).toHaveLength(50);
      expect(referrers.map((r) => r.value)).not.toContain("site10"); // the 10 least clicked: other
      expect(referrers.map((r) => r.value)).toContain("site11");
      expect(hourly.filter((r) => r.dimension === "country")).toEqual([
        { dimension: "country", value: "GB", humans: (60 * 61) / 2, bots: 0 },
        { dimension: "country", value: "unknown", humans: 0, bots: 7 },
      ]);
      expect(hourly.filter((r) => r.dimension === "rule")).toEqual([{ dimension: "rule", value: "r1", humans: 5, bots: 0 }]);

      const daily = (await client.query<{ workspace_id: string; dimension: string; value: string; humans: string; bots: string }>(
        "SELECT workspace_id, dimension, value, humans, bots FROM workspace_clicks_daily ORDER BY workspace_id, dimension, value",
      )).rows.map((r) => ({ ...r, humans: Number(r.humans), bots: Number(r.bots) }));
      // A link day's other ('') and rule none ('') count in 'all' only; the anonymous link in none.
      expect(daily).toEqual([
        { workspace_id: "w1", dimension: "all", value: "", humans: 10, bots: 1 },
        { workspace_id: "w1", dimension: "country", value: "GB", humans: 5, bots: 1 },
      ]);
      expect((await client.query("SELECT * FROM workspace_clicks_recent")).rows).toEqual([]);
    } finally {
      await client.query("ROLLBACK").catch(() => {});
      await client.query("DROP SCHEMA IF EXISTS ws_backfill CASCADE").catch(() => {});
      await client.end();
    }
  });
});
