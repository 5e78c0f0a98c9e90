// Click analytics over real HTTP: clicks sent with chosen User-Agent, Referer and
// client address (TRUST_PROXY=on, addresses of known countries in the shipped database)
// are read back exactly, in every dimension, humans and bots apart.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { apiCaller, signUpAndLogIn } from "./support/api-client.ts";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { clickCounter } from "../url/click-counting/instance.ts";
import { db } from "../url/db.ts";

vi.hoisted(() => {
  process.env.TRUST_PROXY = "on"; // read once, when the configs load: each click names its address
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const call = apiCaller(() => server.url);

const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const preview = "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)";

interface Click {
  agent?: string;
  referer?: string;
  from: string;
  method?: "GET" | "HEAD";
}

/**
 * One request to the short link, as a client with that agent, referrer and address;
 * answers its status. node:http rather than fetch, which sends "node" as the agent when
 * none is given.
 */
function click(code: string, c: Click, headers: Record<string, string> = {}): Promise<number> {
  const h: Record<string, string> = { "x-forwarded-for": c.from, ...headers };
  if (c.agent !== undefined) h["user-agent"] = c.agent;
  if (c.referer !== undefined) h.referer = c.referer;
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}/${code}`, { method: c.method ?? "GET", headers: h }, (res) => {
      res.resume().on("end", () => resolve(res.statusCode!));
    });
    req.on("error", reject).end();
  });
}

async function shorten(body: Record<string, unknown>, token?: string): Promise<string> {
  const res = await call("POST", "/shorten", { token, body });
  expect(res.status).toBe(200);
  return res.body.code as string;
}

interface Counted {
  value: string;
  humans: number;
  bots: number;
}
interface Breakdown {
  top: Counted[];
  other: { humans: number; bots: number };
}
interface Analytics {
  totals: { all: number; humans: number; bots: number };
  series: { start: string; humans: number; bots: number }[];
  referrers: Breakdown;
  countries: Breakdown;
  browsers: Breakdown;
  os: Breakdown;
  devices: Breakdown;
  [field: string]: unknown;
}
const breakdowns = ["referrers", "countries", "browsers", "os", "devices"] as const;

async function analytics(code: string, query = "", token?: string): Promise<Analytics> {
  await clickCounter.flush(); // analytics read what is stored
  const res = await call("GET", `/${code}/analytics${query}`, { token });
  expect(res).toMatchObject({ status: 200 });
  return res.body as unknown as Analytics;
}

/** A breakdown as value → [humans, bots], for comparing regardless of order among equals. */
const asMap = (b: Breakdown) => Object.fromEntries(b.top.map((v) => [v.value, [v.humans, v.bots]]));
const sum = (b: Breakdown) => b.top.reduce((n, v) => n + v.humans + v.bots, 0) + b.other.humans + b.other.bots;

describe("what a click records", () => {
  test("each dimension reads back exactly the clicks sent; every dimension sums to the link's clicks; bots apart", async () => {
    const code = await shorten({ url: "https://example.com/analytics" });
    const sent: Click[] = [
      ...Array<Click>(3).fill({ agent: chrome, referer: "https://news.ycombinator.com/item?id=1", from: "81.2.69.142" }),
      ...Array<Click>(2).fill({ agent: iphone, from: "8.8.8.8" }),
      { agent: "curl/8.5.0", from: "193.0.6.139" },
      { agent: googlebot, referer: "https://www.google.com/", from: "133.242.0.3" },
      { agent: preview, referer: "https://www.Facebook.com/", from: "10.0.0.1" },
      { from: "2001:4860:4860::8888" }, // no User-Agent at all
    ];
    for (const c of sent) expect(await click(code, c)).toBe(200); // JSON {url}: no Accept for HTML
    expect(await click(code, { agent: chrome, from: "8.8.8.8", method: "HEAD" })).toBe(200); // HEAD counts nothing

    const a = await analytics(code);
    const stats = await call("GET", `/${code}/stats`);
    expect(stats.body.clicks).toBe(9);
    expect(a.totals).toEqual({ all: 9, humans: 5, bots: 4 });
    expect(asMap(a.referrers)).toEqual({
      "news.ycombinator.com": [3, 0],
      direct: [2, 2],
      "google.com": [0, 1],
      "facebook.com": [0, 1],
    });
    expect(asMap(a.countries)).toEqual({ GB: [3, 0], US: [2, 1], NL: [0, 1], JP: [0, 1], unknown: [0, 1] });
    expect(asMap(a.browsers)).toEqual({
      Chrome: [3, 0],
      "Mobile Safari": [2, 0],
      curl: [0, 1],
      Googlebot: [0, 1],
      facebookexternalhit: [0, 1],
      unknown: [0, 1],
    });
    expect(asMap(a.os)).toEqual({ Windows: [3, 0], iOS: [2, 0], unknown: [0, 4] });
    expect(asMap(a.devices)).toEqual({ desktop: [3, 0], mobile: [2, 0], bot: [0, 4] });
    for (const b of breakdowns) expect(sum(a[b]), b).toBe(9);
    expect(a.series.reduce((n, p) => n + p.humans + p.bots, 0)).toBe(9);
    // Most clicks first, equal counts by value.
    expect(a.devices.top.map((v) => v.value)).toEqual(["bot", "desktop", "mobile"]);
    // Nothing personal is stored: no address, no full agent.
    const stored = await db.queryAll<Record<string, unknown>>`SELECT * FROM link_clicks_hourly WHERE code = ${code}`;
    const text = JSON.stringify(stored);
    for (const secret of ["81.2.69.142", "8.8.8.8", "Win64", "item?id=1"]) expect(text).not.toContain(secret);
  });

  test("a budgeted link's clicks and a password link's are recorded with the same details", async () => {
    const { token } = await signUpAndLogIn(call, "analytics-budget@example.com");
    const budgeted = await shorten({ url: "https://example.com/budget", maxClicks: 2 }, token);
    for (let i = 0; i < 3; i++) await click(budgeted, { agent: chrome, referer: "https://t.co/x", from: "81.2.69.142" });
    const a = await analytics(budgeted, "", token);
    expect(a.totals).toEqual({ all: 2, humans: 2, bots: 0 });
    expect(asMap(a.referrers)).toEqual({ "t.co": [2, 0] });
    expect(asMap(a.countries)).toEqual({ GB: [2, 0] });

    const locked = await shorten({ url: "https://example.com/locked", password: "open sesame" }, token);
    expect(await click(locked, { agent: "curl/8.5.0", from: "8.8.8.8" }, { "x-link-password": "open sesame" })).toBe(200);
    expect(await click(locked, { agent: "curl/8.5.0", from: "8.8.8.8" })).toBe(401); // no password: no click
    const b = await analytics(locked, "", token);
    expect(b.totals).toEqual({ all: 1, humans: 0, bots: 1 });
    expect(asMap(b.countries)).toEqual({ US: [0, 1] });
  });
});

describe("who reads them", () => {
  test("an owned link's analytics are its owner's: 401 signed out, 403 for another account; totals over the owner's links", async () => {
    const owner = await signUpAndLogIn(call, "analytics-owner@example.com");
    const other = await signUpAndLogIn(call, "analytics-other@example.com");
    const first = await shorten({ url: "https://example.com/own-1" }, owner.token);
    const second = await shorten({ url: "https://example.com/own-2" }, owner.token);
    await click(first, { agent: chrome, from: "81.2.69.142" });
    await click(second, { agent: googlebot, from: "8.8.8.8" });
    await click(second, { agent: iphone, from: "8.8.8.8" });
    await clickCounter.flush();

    expect(await call("GET", `/${first}/analytics`)).toMatchObject({ status: 401, body: { code: "unauthenticated" } });
    expect(await call("GET", `/${first}/analytics`, { token: other.token })).toMatchObject({ status: 403, body: { code: "permission_denied" } });
    expect((await analytics(first, "", owner.token)).totals).toEqual({ all: 1, humans: 1, bots: 0 });

    const mine = await call("GET", "/me/clicks", { token: owner.token });
    expect(mine).toMatchObject({ status: 200, body: { totals: { all: 3, humans: 2, bots: 1 } } });
    expect(await call("GET", "/me/clicks")).toMatchObject({ status: 401 });
    expect((await call("GET", "/me/clicks", { token: other.token })).body.totals).toEqual({ all: 0, humans: 0, bots: 0 });

    // The list carries each link's last 14 days for a sparkline: today's clicks last.
    const list = await call("GET", "/links", { token: owner.token });
    const recent = Object.fromEntries((list.body.links as { code: string; recentClicks: number[] }[]).map((l) => [l.code, l.recentClicks]));
    expect(recent[first]).toEqual([...Array<number>(13).fill(0), 1]);
    expect(recent[second]).toEqual([...Array<number>(13).fill(0), 2]);
  });

  test("a deleted link's analytics: 404 to others, still its owner's", async () => {
    const owner = await signUpAndLogIn(call, "analytics-deleted@example.com");
    const code = await shorten({ url: "https://example.com/deleted" }, owner.token);
    await click(code, { agent: chrome, from: "81.2.69.142" });
    expect((await call("DELETE", `/links/${code}`, { token: owner.token })).status).toBe(200);
    expect((await analytics(code, "", owner.token)).totals.all).toBe(1);
    const anonymous = await shorten({ url: "https://example.com/anonymous-disabled" });
    await db.exec`UPDATE urls SET disabled_at = now(), disabled_reason = 'abuse' WHERE code = ${anonymous}`;
    expect(await call("GET", `/${anonymous}/analytics`)).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect(await call("GET", "/zzzzzz/analytics")).toMatchObject({ status: 404, body: { code: "not_found" } });
  });
});

describe("ranges", () => {
  test.each([
    ["?from=yesterday", "from"],
    ["?to=2026-13-45", "to"],
    ["?from=2026-11-10T10:00:00", "from"], // a local time without its zone
    ["?from=2026-11-10&to=2026-11-01", "from must be earlier"],
    ["?tz=Mars/Olympus", "tz"],
    ["?interval=week", "interval"],
    ["?interval=hour&from=2020-01-01", "interval=hour"],
    ["?from=2000-01-01&to=2020-01-01", "at most 3660 days"],
  ])("%s is 400 invalid_argument naming %s", async (query, named) => {
    const code = await shorten({ url: "https://example.com/ranges" });
    const res = await call("GET", `/${code}/analytics${query}`);
    expect(res).toMatchObject({ status: 400, body: { code: "invalid_argument", message: expect.stringContaining(named), details: null } });
  });

  test("day buckets are the time zone's days; hour buckets are hours; every bucket is listed, empty ones as 0", async () => {
    const code = await shorten({ url: "https://example.com/zones" });
    // 23:00 UTC on the 10th is the 11th in Tokyo (UTC+9) and still the 10th in New York.
    const at = new Date(Date.now() - 5 * 86_400_000);
    const day = at.toISOString().slice(0, 10);
    const hour = new Date(`${day}T23:00:00Z`);
    await db.exec`
      INSERT INTO link_clicks_hourly (code, hour, bot, referrer, country, browser, os, device, clicks)
      VALUES (${code}, ${hour}, false, 'direct', 'JP', 'Chrome', 'Windows', 'desktop', 4),
             (${code}, ${hour}, true, 'direct', 'JP', 'curl', 'unknown', 'bot', 1)`;
    const from = new Date(Date.parse(`${day}T00:00:00Z`) - 2 * 86_400_000).toISOString();
    const to = new Date(Date.parse(`${day}T00:00:00Z`) + 3 * 86_400_000).toISOString();
    const tokyo = await analytics(code, `?from=${from}&to=${to}&tz=Asia/Tokyo`);
    const nonZero = (a: Analytics) => a.series.filter((p) => p.humans + p.bots > 0);
    const nextDay = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    // Tokyo's midnight of the next day, as an instant: 15:00 UTC on `day`.
    expect(nonZero(tokyo)).toEqual([{ start: new Date(`${nextDay}T00:00:00+09:00`).toISOString(), humans: 4, bots: 1 }]);
    const newYork = await analytics(code, `?from=${from}&to=${to}&tz=America/New_York`);
    expect(nonZero(newYork)).toHaveLength(1);
    expect(new Date(nonZero(newYork)[0].start).toLocaleDateString("en-CA", { timeZone: "America/New_York" })).toBe(day);
    const utc = await analytics(code, `?from=${from}&to=${to}`);
    expect(utc.series).toHaveLength(5);
    expect(nonZero(utc)).toEqual([{ start: `${day}T00:00:00.000Z`, humans: 4, bots: 1 }]);

    const hours = await analytics(code, `?interval=hour&from=${day}T20:00:00Z&to=${nextDay}T02:00:00Z`);
    expect(hours.series.map((p) => p.start.slice(11, 13))).toEqual(["20", "21", "22", "23", "00", "01"]);
    expect(nonZero(hours)).toEqual([{ start: hour.toISOString(), humans: 4, bots: 1 }]);
    expect(hours.totals).toEqual({ all: 5, humans: 4, bots: 1 });
  });

  test("top 10 per breakdown, the rest summed as other", async () => {
    const code = await shorten({ url: "https://example.com/many-referrers" });
    for (let i = 1; i <= 12; i++) {
      await click(code, { agent: chrome, referer: `https://site${String(i).padStart(2, "0")}.example/`, from: "81.2.69.142" });
    }
    await click(code, { agent: chrome, referer: "https://site01.example/again", from: "81.2.69.142" });
    const a = await analytics(code);
    expect(a.referrers.top).toHaveLength(10);
    expect(a.referrers.top[0]).toEqual({ value: "site01.example", humans: 2, bots: 0 });
    expect(a.referrers.top.slice(1).map((v) => v.value)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) => `site${String(i).padStart(2, "0")}.example`));
    expect(a.referrers.other).toEqual({ humans: 2, bots: 0 });
    expect(sum(a.referrers)).toBe(13);
  });
});
