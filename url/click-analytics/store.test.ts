import { describe, expect, test } from "vitest";
import { clickKey } from "../../click-counter/click-keys";
import { db } from "../db";
import { encodeDetails, hourOf, type ClickDetails } from "../../visitors/dimensions";
import { addClickAnalytics, rowsPerHour, valuesPerHour } from "./store";

const hour = hourOf(Date.now());
const chrome: Omit<ClickDetails, "referrer"> = { hour, bot: false, country: "GB", browser: "Chrome", os: "Windows", device: "desktop" };

/** Adds `clicks` (click details and their count) for `code` as one flush does. */
async function flush(code: string, clicks: [ClickDetails, number][]): Promise<void> {
  const counts = new Map<string, number>();
  for (const [d, n] of clicks) counts.set(clickKey(code, encodeDetails(d)), (counts.get(clickKey(code, encodeDetails(d))) ?? 0) + n);
  await using tx = await db.begin();
  await addClickAnalytics(tx, counts, new Set([code]));
  await tx.commit();
}

async function stored(code: string) {
  return db.queryAll<{ bot: boolean; referrer: string; country: string; browser: string; clicks: number }>`
    SELECT bot, referrer, country, browser, clicks::int FROM link_clicks_hourly WHERE code = ${code}`;
}

const distinct = (rows: { referrer: string }[]) => new Set(rows.map((r) => r.referrer).filter((v) => v !== ""));
const sum = (rows: { clicks: number }[]) => rows.reduce((n, r) => n + r.clicks, 0);

describe("the bound on one link's hour", () => {
  test(`a dimension keeps its first ${valuesPerHour} values, most clicked first; later ones are other, every click counted`, async () => {
    // 3 × the bound of referrers in one batch, site k clicked k times: the most clicked are kept.
    const first = Array.from({ length: 3 * valuesPerHour }, (_, k): [ClickDetails, number] => [{ ...chrome, referrer: `site${k + 1}.example` }, k + 1]);
    await flush("cap01", first);
    let rows = await stored("cap01");
    expect(distinct(rows).size).toBe(valuesPerHour);
    expect(distinct(rows).has(`site${3 * valuesPerHour}.example`)).toBe(true);
    expect(distinct(rows).has("site1.example")).toBe(false);
    expect(sum(rows)).toBe((3 * valuesPerHour * (3 * valuesPerHour + 1)) / 2);

    // A later batch: a kept value still counts as itself, a new one as other, however clicked.
    await flush("cap01", [
      [{ ...chrome, referrer: `site${3 * valuesPerHour}.example` }, 1],
      [{ ...chrome, referrer: "new.example" }, 1000],
    ]);
    rows = await stored("cap01");
    expect(distinct(rows).size).toBe(valuesPerHour);
    expect(rows.find((r) => r.referrer === `site${3 * valuesPerHour}.example`)!.clicks).toBe(3 * valuesPerHour + 1);
    expect(rows.find((r) => r.referrer === "")!.clicks).toBe((2 * valuesPerHour * (2 * valuesPerHour + 1)) / 2 + 1000);
    // The other dimensions were not touched by the referrers' bound.
    expect(new Set(rows.map((r) => r.browser))).toEqual(new Set(["Chrome"]));
  });

  test(`at most ${rowsPerHour} combinations, then the hour's row of others; humans and bots stay apart and exact`, async () => {
    // Referrers × countries × browsers within the bound of each, more combinations than rows.
    const clicks: [ClickDetails, number][] = [];
    for (let r = 0; r < 20; r++) {
      for (let c = 0; c < 20; c++) {
        for (const bot of [false, true]) clicks.push([{ ...chrome, bot, referrer: `r${r}.example`, country: `C${c}`, browser: bot ? "curl" : "Chrome" }, 1]);
      }
    }
    await flush("cap02", clicks.slice(0, 400));
    await flush("cap02", clicks.slice(400));
    const rows = await stored("cap02");
    expect(rows.length).toBeLessThanOrEqual(rowsPerHour + 2);
    expect(rows.length).toBeGreaterThan(rowsPerHour);
    expect(sum(rows.filter((r) => r.bot))).toBe(400);
    expect(sum(rows.filter((r) => !r.bot))).toBe(400);
    const others = rows.filter((r) => r.referrer === "" && r.country === "" && r.browser === "");
    expect(others).toHaveLength(2);
    expect(sum(others)).toBe(800 - rowsPerHour);
  });
});
