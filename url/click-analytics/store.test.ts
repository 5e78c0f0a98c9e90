import { describe, expect, test } from "vitest";
import { db } from "../db";
import { hourOf, type ClickDetails } from "../../visitors/dimensions";
import { rowsPerHour, valuesPerHour } from "./store";
import { rulesPerHour } from "./rule-clicks";
import { flushClicks, type Clicks } from "../../test/support/click-rows";

const hour = hourOf(Date.now());
const chrome: Omit<ClickDetails, "referrer"> = { hour, bot: false, country: "GB", browser: "Chrome", os: "Windows", device: "desktop" };

/** Adds `clicks` (click details and their count) for `code` as one flush does. */
const flush = (code: string, clicks: [ClickDetails, number][]) => flushClicks(clicks.map(([details, n]): Clicks => [code, details, n]));

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

describe("rows that exist", () => {
  test("a later batch adds to them, keys of one row summed (with and without a rule), beside a new combination", async () => {
    await flush("exist01", [[{ ...chrome, referrer: "a.example" }, 2]]);
    await flush("exist01", [
      [{ ...chrome, referrer: "a.example" }, 3],
      [{ ...chrome, referrer: "a.example", rule: "ruleA123" }, 4],
      [{ ...chrome, referrer: "b.example" }, 5],
    ]);
    const rows = await stored("exist01");
    expect(rows.map((r) => [r.referrer, r.clicks]).sort()).toEqual([
      ["a.example", 9],
      ["b.example", 5],
    ]);
  });
});

describe("the targeting rule of a click", () => {
  async function byRule(code: string) {
    return db.queryAll<{ bot: boolean; rule: string; clicks: number }>`
      SELECT bot, rule, clicks::int FROM link_clicks_rules_hourly WHERE code = ${code} ORDER BY rule, bot`;
  }

  test("is counted apart, per rule, humans and bots; a click no rule sent has no rule row; the hourly rows hold every click", async () => {
    await flush("rule01", [
      [{ ...chrome, referrer: "a.example", rule: "ruleA123" }, 3],
      [{ ...chrome, referrer: "a.example" }, 2],
      [{ ...chrome, referrer: "a.example", rule: "ruleB456" }, 1],
      [{ ...chrome, bot: true, browser: "curl", referrer: "a.example", rule: "ruleB456" }, 5],
    ]);
    await flush("rule01", [[{ ...chrome, referrer: "b.example", rule: "ruleA123" }, 4]]);
    expect(await byRule("rule01")).toEqual([
      { bot: false, rule: "ruleA123", clicks: 7 },
      { bot: false, rule: "ruleB456", clicks: 1 },
      { bot: true, rule: "ruleB456", clicks: 5 },
    ]);
    expect(sum(await stored("rule01"))).toBe(15);
  });

  test("a link without rules writes no rule row", async () => {
    await flush("rule02", [[{ ...chrome, referrer: "a.example" }, 9]]);
    expect(await byRule("rule02")).toEqual([]);
    expect(sum(await stored("rule02"))).toBe(9);
  });

  test(`an hour keeps ${rulesPerHour} rule ids, most clicked first; later ones count as none, every click still in the hourly rows`, async () => {
    const first = Array.from({ length: rulesPerHour + 5 }, (_, k): [ClickDetails, number] => [{ ...chrome, referrer: "a.example", rule: `r${String(k).padStart(7, "0")}` }, k + 1]);
    await flush("rule03", first);
    let rows = await byRule("rule03");
    expect(rows).toHaveLength(rulesPerHour);
    expect(rows.some((r) => r.rule === "r0000000")).toBe(false); // the least clicked
    await flush("rule03", [
      [{ ...chrome, referrer: "a.example", rule: `r${String(rulesPerHour + 4).padStart(7, "0")}` }, 1], // kept: counts
      [{ ...chrome, referrer: "a.example", rule: "newrule0" }, 100], // no room: none's
    ]);
    rows = await byRule("rule03");
    expect(rows).toHaveLength(rulesPerHour);
    expect(rows.find((r) => r.rule === `r${String(rulesPerHour + 4).padStart(7, "0")}`)!.clicks).toBe(rulesPerHour + 6);
    const all = ((rulesPerHour + 5) * (rulesPerHour + 6)) / 2 + 101;
    expect(sum(await stored("rule03"))).toBe(all);
  });
});
