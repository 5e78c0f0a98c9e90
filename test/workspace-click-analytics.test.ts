// A workspace's click analytics (GET /me/clicks) read from its own rows (url migration 20)
// answer what summing its links' analytics answers: after the flush, after the compaction
// folds the recent rows into hours, and after the rollup folds old hours into days.
import { describe, expect, test } from "vitest";
import { clickAnalytics } from "../analytics/link-analytics/query";
import { rollUpClickAnalytics } from "../analytics/link-analytics/rollup";
import type { AnalyticsRange } from "../analytics/click-reads/range";
import { compactRecentClicks, valuesPerHour } from "../analytics/workspace-analytics/compaction";
import { workspaceClickAnalytics } from "../analytics/workspace-analytics/query";
import { rollUpWorkspaceClicks } from "../analytics/workspace-analytics/rollup";
import { db } from "../url/db";
import { hourOf, type ClickDetails } from "../visitors/dimensions";
import { flushClicks, insertLinks, type Clicks } from "./support/click-rows";

const dayMs = 86_400_000;
const now = new Date();
const chrome: Omit<ClickDetails, "hour"> = { bot: false, referrer: "t.co", country: "GB", browser: "Chrome", os: "Windows", device: "desktop" };
const curl: Omit<ClickDetails, "hour"> = { bot: true, referrer: "direct", country: "US", browser: "curl", os: "unknown", device: "bot" };

const ranges: [string, AnalyticsRange][] = [
  ["the last 30 days by day", { from: new Date(now.getTime() - 30 * dayMs), to: now, interval: "day", tz: "UTC" }],
  ["a year by Paris's days", { from: new Date(now.getTime() - 365 * dayMs), to: now, interval: "day", tz: "Europe/Paris" }],
  ["the last 2 days by hour", { from: new Date(now.getTime() - 2 * dayMs), to: now, interval: "hour", tz: "UTC" }],
];

/** The workspace's answer equals the sum of its links' answers, for each range. */
async function expectSameAsItsLinks(workspace: string, codes: string[]): Promise<void> {
  for (const [name, range] of ranges) expect(await workspaceClickAnalytics(workspace, range), name).toEqual(await clickAnalytics(codes, range));
}

describe("a workspace's analytics from its own rows", () => {
  test("answer as its links' do after the flush, the compaction and the rollup; other workspaces' and anonymous links' clicks apart", async () => {
    const codes = ["wca01", "wca02", "wca03"];
    await insertLinks("wca-ws", codes);
    await insertLinks("wca-other", ["wca04"]);
    await insertLinks(null, ["wca05"]);
    const hour = (daysAgo: number, h = 0) => hourOf(now.getTime() - daysAgo * dayMs) - h;
    const clicks: Clicks[] = [];
    // 60 referrers in one hour over the links (each link's hour keeps them all; the
    // workspace's hour keeps 50), countries, bots, a targeting rule, and hours from now to 40 days ago.
    for (let k = 1; k <= 60; k++) clicks.push([codes[k % 3], { ...chrome, hour: hour(0), referrer: `site${k}.example` }, k]);
    for (const [daysAgo, n] of [[1, 3], [2, 5], [10, 7], [33, 2], [40, 11], [41, 13]] as const) {
      clicks.push(["wca01", { ...chrome, hour: hour(daysAgo, 5), country: "FR" }, n]);
      clicks.push(["wca02", { ...curl, hour: hour(daysAgo, 5) }, n + 1]);
      clicks.push(["wca03", { ...chrome, hour: hour(daysAgo, 2), rule: "spring" }, 2 * n]);
    }
    clicks.push(["wca04", { ...chrome, hour: hour(0) }, 1000], ["wca05", { ...chrome, hour: hour(0) }, 1000]);
    await flushClicks(clicks.slice(0, 40));
    await flushClicks(clicks.slice(40));

    await expectSameAsItsLinks("wca-ws", codes);

    expect(await compactRecentClicks()).toBeGreaterThan(0);
    expect(await db.queryAll`SELECT * FROM workspace_clicks_recent WHERE workspace_id = 'wca-ws'`).toEqual([]);
    const referrers = await db.queryRow<{ n: number }>`
      SELECT count(*)::int AS n FROM workspace_clicks_hourly WHERE workspace_id = 'wca-ws' AND dimension = 'referrer' AND hour = date_trunc('hour', now())`;
    expect(referrers!.n).toBe(valuesPerHour);
    // New clicks after the compaction: in the recent rows again, read with the hours.
    await flushClicks([["wca01", { ...chrome, hour: hour(0), referrer: "site60.example" }, 4]]);
    await expectSameAsItsLinks("wca-ws", codes);

    expect(await rollUpClickAnalytics(now)).toBeGreaterThan(0);
    await compactRecentClicks();
    expect(await rollUpWorkspaceClicks(now)).toBeGreaterThan(0);
    await expectSameAsItsLinks("wca-ws", codes);

    const other = await workspaceClickAnalytics("wca-other", ranges[0][1]);
    expect(other.totals).toEqual({ all: 1000, humans: 1000, bots: 0 });
  });

  test("a workspace with no clicks: zeros and empty breakdowns, as a link's", async () => {
    const [, range] = ranges[0];
    expect(await workspaceClickAnalytics("wca-nobody", range)).toEqual(await clickAnalytics([], range));
  });
});
