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

describe("the targeting rule of a click", () => {
  async function byRule(code: string) {
    return db.queryAll<{ rule: string; referrer: string; clicks: number }>`
      SELECT rule, referrer, clicks::int FROM link_clicks_hourly WHERE code = ${code} ORDER BY rule, referrer`;
  }

  test("is a column of the row; a click no rule sent has ''", async () => {
    await flush("rule01", [
      [{ ...chrome, referrer: "a.example", rule: "ruleA123" }, 3],
      [{ ...chrome, referrer: "a.example" }, 2],
      [{ ...chrome, referrer: "a.example", rule: "ruleB456" }, 1],
    ]);
    await flush("rule01", [[{ ...chrome, referrer: "a.example", rule: "ruleA123" }, 4]]);
    expect(await byRule("rule01")).toEqual([
      { rule: "", referrer: "a.example", clicks: 2 },
      { rule: "ruleA123", referrer: "a.example", clicks: 7 },
      { rule: "ruleB456", referrer: "a.example", clicks: 1 },
    ]);
  });

  test(`past ${rowsPerHour} combinations the row of others keeps the rule, so each rule's clicks stay exact`, async () => {
    const clicks: [ClickDetails, number][] = [];
    for (let r = 0; r < 30; r++) {
      for (let c = 0; c < 30; c++) clicks.push([{ ...chrome, referrer: `r${r}.example`, country: `C${c}`, rule: c % 2 === 0 ? "even0000" : undefined }, 1]);
    }
    await flush("rule02", clicks);
    const rows = await byRule("rule02");
    // At most the bound, plus a row of others per rule (none and "even0000"; humans only here).
    expect(rows.length).toBeLessThanOrEqual(rowsPerHour + 2);
    expect(rows.filter((r) => r.referrer === "").map((r) => r.rule).sort()).toEqual(["", "even0000"]);
    expect(sum(rows.filter((r) => r.rule === "even0000"))).toBe(450);
    expect(sum(rows.filter((r) => r.rule === ""))).toBe(450);
  });
});
