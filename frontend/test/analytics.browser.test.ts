// A link's click analytics in a real browser against the real app: clicks made
// through HTTP with chosen User-Agent, Referer and X-Forwarded-For headers, then the stats
// page's totals, humans/bots split, breakdown rows, range and bar-size buttons, errors, and
// My links' sparkline. The tests run in order and share one browser and one link.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Locator } from "playwright-core";
import { screenshot, type Browser } from "./browser.ts";
import { startBrowserTestBed, type BrowserApp, type BrowserTestBed, type TargetServer } from "./servers.ts";

let bed: BrowserTestBed | undefined;
let app: BrowserApp;
let target: TargetServer;
let browser: Browser;
let cspViolations: string[] = [];

beforeAll(async () => {
  // TRUST_PROXY=on: the clicks' X-Forwarded-For is their client address, so they get a country.
  bed = await startBrowserTestBed({ TRUST_PROXY: "on" });
  ({ app, target, browser, cspViolations } = bed);
}, 120_000);

afterAll(() => bed?.close(), 60_000);

const html = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const hackerNews = "https://news.ycombinator.com/item?id=41234567";
// Google's public resolver: in the United States in every IP-to-country database.
const usAddress = "8.8.8.8";

interface Account {
  email: string;
  token: string;
  expiresAt: string;
}

async function account(name: string): Promise<Account> {
  const email = `${name}-${Date.now()}@example.com`;
  const password = "correct horse battery";
  const json = { "content-type": "application/json" };
  const made = await fetch(`${app.url}/users`, { method: "POST", headers: json, body: JSON.stringify({ email, name, age: 40, password }) });
  expect(made.status).toBe(200);
  const login = await fetch(`${app.url}/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ email, password }) });
  expect(login.status).toBe(200);
  const { token, expiresAt } = (await login.json()) as { token: string; expiresAt: string };
  return { email, token, expiresAt };
}

/** The page's session as the login page keeps it (logging in through that page is frontend.browser.test.ts's). */
async function signInAs(who: Account | null): Promise<void> {
  const { page } = browser;
  await page.goto(app.url);
  const session = who && JSON.stringify({ token: who.token, email: who.email, expiresAt: who.expiresAt });
  await page.evaluate(
    session ? `localStorage.setItem("url-shortener.session", ${JSON.stringify(session)})` : `localStorage.removeItem("url-shortener.session")`,
  );
  // The page reads its session when it starts.
  await page.reload();
}

/** One click on the short link, as a client sending these headers: a browser asking for HTML is redirected, curl gets JSON. */
async function click(code: string, headers: Record<string, string>): Promise<void> {
  const res = await fetch(`${app.url}/${code}`, { headers, redirect: "manual" });
  expect(res.status).toBe(headers.accept?.includes("text/html") ? 302 : 200);
}

interface Analytics {
  totals: { all: number; humans: number; bots: number };
  series: unknown[];
}

/** A breakdown's table row for a value, by the row header's text. */
function row(table: string, value: string): Locator {
  const section = browser.page.getByRole("region", { name: table });
  return section.getByRole("row").filter({ has: browser.page.getByRole("rowheader", { name: value, exact: true }) });
}

/** A row's number cells: humans and bots. */
async function counts(r: Locator): Promise<string[]> {
  return r.locator("td.num").allTextContents();
}

describe("a link's click analytics in the browser", () => {
  let owner: Account;
  let code = "";
  let createdAt = "";
  const bars = () => browser.page.locator(".click-chart svg .bar");
  const total = (name: string) => browser.page.locator(".totals div").filter({ hasText: name }).locator("dd");

  test("two human clicks from Hacker News and one by curl are counted", async () => {
    owner = await account("owner");
    const made = await fetch(`${app.url}/shorten`, {
      method: "POST",
      headers: { authorization: `Bearer ${owner.token}`, "content-type": "application/json" },
      body: JSON.stringify({ url: target.url }),
    });
    expect(made.status).toBe(200);
    ({ code } = (await made.json()) as { code: string });

    await click(code, { "user-agent": chrome, accept: html, referer: hackerNews, "x-forwarded-for": usAddress });
    await click(code, { "user-agent": chrome, accept: html, referer: hackerNews, "x-forwarded-for": usAddress });
    await click(code, { "user-agent": "curl/8.5.0", accept: "*/*" });

    // Clicks are written in batches: the API is asked until all three are stored, so the page is read once.
    await expect
      .poll(async () => {
        const res = await fetch(`${app.url}/${code}/analytics`, { headers: { authorization: `Bearer ${owner.token}` } });
        return ((await res.json()) as Analytics).totals;
      })
      .toEqual({ all: 3, humans: 2, bots: 1 });
  });

  test("the stats page shows the totals, the split, and where the clicks came from", async () => {
    const { page } = browser;
    await signInAs(owner);
    const asked = page.waitForRequest((r) => r.url().includes(`/${code}/analytics?`));
    await page.goto(`${app.url}/#/stats/${code}`);
    const query = new URL((await asked).url()).searchParams;
    expect(query.get("tz")).toBe("UTC"); // the browser's own zone (launchBrowser sets UTC)
    expect(query.get("interval")).toBe("day");

    await expect.poll(() => total("All").textContent()).toBe("3");
    expect(await total("Humans").textContent()).toBe("2");
    expect(await total("Bots").textContent()).toBe("1");
    expect(await page.locator(".clicks").textContent()).toBe("3");
    createdAt = (await page.locator(".facts time").getAttribute("datetime"))!;

    const chart = page.getByRole("img", { name: /^3 clicks \(2 by humans, 1 by bots\) from / });
    expect(await chart.count()).toBe(1);
    expect(await counts(row("Referrers", "news.ycombinator.com"))).toEqual(["2", "0"]);
    expect(await counts(row("Referrers", "Direct (no referrer)"))).toEqual(["0", "1"]);
    expect(await counts(row("Browsers", "Chrome"))).toEqual(["2", "0"]);
    expect(await counts(row("Browsers", "curl"))).toEqual(["0", "1"]);
    expect(await counts(row("Devices", "Desktop"))).toEqual(["2", "0"]);
    expect(await counts(row("Devices", "Bot"))).toEqual(["0", "1"]);
    // The flag is two regional-indicator letters before the name; "unknown" has none.
    const us = row("Countries", "United States");
    expect(await counts(us)).toEqual(["2", "0"]);
    expect(await us.getByRole("rowheader").textContent()).toBe("\u{1F1FA}\u{1F1F8} United States");
    expect(await row("Countries", "Unknown").getByRole("rowheader").textContent()).toBe("Unknown");
    // No "Other" row: every value is among the top ten.
    expect(await page.getByRole("rowheader", { name: "Other" }).count()).toBe(0);
    await screenshot(page, "stats-analytics");
    await page.screenshot({ path: "/tmp/fe31-stats.png", fullPage: true });
  });

  /** Presses a button of a group and answers the request it made and the answer's bucket count, once the chart shows it. */
  async function press(group: string, button: string): Promise<{ query: URLSearchParams; buckets: number }> {
    const { page } = browser;
    const answered = page.waitForResponse((r) => r.url().includes(`/${code}/analytics?`));
    await page.getByRole("group", { name: group }).getByRole("button", { name: button, exact: true }).click();
    const response = await answered;
    expect(response.status()).toBe(200);
    const buckets = ((await response.json()) as Analytics).series.length;
    await expect.poll(() => bars().count()).toBe(buckets);
    expect(await page.getByRole("group", { name: group }).getByRole("button", { name: button, exact: true }).getAttribute("aria-pressed")).toBe("true");
    return { query: new URL(response.url()).searchParams, buckets };
  }

  const rangeMs = (query: URLSearchParams) => Date.now() - Date.parse(query.get("from")!);

  test("the range and bar-size buttons change the request and the bars", async () => {
    const { page } = browser;
    const hour = page.getByRole("group", { name: "Bars per" }).getByRole("button", { name: "Hour" });

    const dayOf24h = await press("Range", "24 hours");
    expect(dayOf24h.query.get("interval")).toBe("day");
    expect(rangeMs(dayOf24h.query)).toBeGreaterThanOrEqual(24 * 3600_000);
    expect(rangeMs(dayOf24h.query)).toBeLessThan(25 * 3600_000);
    expect(dayOf24h.buckets).toBeLessThanOrEqual(3); // yesterday and today (and tomorrow, should midnight pass meanwhile)

    const hours = await press("Bars per", "Hour");
    expect(hours.query.get("interval")).toBe("hour");
    // The hour holding `from` to the one holding the server's now: 26 when an hour turns between the two clocks' readings.
    expect(hours.buckets).toBeGreaterThanOrEqual(24);
    expect(hours.buckets).toBeLessThanOrEqual(26);
    expect(await total("All").textContent()).toBe("3");
    await screenshot(page, "stats-analytics-hours");

    const weekHours = await press("Range", "7 days");
    expect(weekHours.query.get("interval")).toBe("hour");
    expect(weekHours.buckets).toBeGreaterThanOrEqual(168);
    expect(weekHours.buckets).toBeLessThanOrEqual(170);
    const weekDays = await press("Bars per", "Day");
    expect(weekDays.buckets).toBeGreaterThanOrEqual(7);
    expect(weekDays.buckets).toBeLessThanOrEqual(9);

    // Hourly buckets go back 31 days at most: the longer ranges turn Hour off and ask for days.
    await press("Bars per", "Hour");
    const quarter = await press("Range", "90 days");
    expect(quarter.query.get("interval")).toBe("day");
    expect(quarter.buckets).toBeGreaterThanOrEqual(90);
    expect(quarter.buckets).toBeLessThanOrEqual(92);
    expect(await hour.isDisabled()).toBe(true);
    expect(await hour.getAttribute("aria-pressed")).toBe("false");

    const all = await press("Range", "All time");
    expect(all.query.get("from")).toBe(createdAt);
    expect(all.query.get("interval")).toBe("day");
    expect(await hour.isDisabled()).toBe(true);
    expect(await total("All").textContent()).toBe("3");
  });

  test("My links shows a sparkline per link, labelled with its clicks", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/#/links`);
    const item = page.getByRole("main").getByRole("listitem").filter({ has: page.getByRole("link", { name: `${app.url}/${code}`, exact: true }) });
    const sparkline = item.getByRole("img", { name: "clicks over the last 14 days: 3" });
    await expect.poll(() => sparkline.count()).toBe(1);
    // A line of 14 points: one per day.
    expect((await sparkline.locator("polyline").getAttribute("points"))!.split(" ")).toHaveLength(14);
    await screenshot(page, "links-sparkline");
  });

  test("someone else's link: the facts, and an alert instead of its clicks", async () => {
    const { page } = browser;
    await signInAs(await account("stranger"));
    await page.goto(`${app.url}/#/stats/${code}`);
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Only the link's owner can see where its clicks come from.");
    expect(await page.locator(".clicks").textContent()).toBe("3");
    expect(await bars().count()).toBe(0);

    await signInAs(null);
    await page.goto(`${app.url}/#/stats/${code}`);
    await expect.poll(() => page.getByRole("alert").textContent()).toMatch(/^Only the link's owner can see where its clicks come from\. Log in if it is yours\.$/);
    expect(await page.getByRole("alert").getByRole("link", { name: "Log in" }).getAttribute("href")).toBe("#/login");
  });

  test("an anonymous link's clicks are anyone's; past ten referrers the rest is one Other row", async () => {
    const { page } = browser;
    const made = await fetch(`${app.url}/shorten`, { method: "POST", body: JSON.stringify({ url: target.url }) });
    const { code: anonymous } = (await made.json()) as { code: string };
    // Twelve referrers with a click each: ten are listed (by value, as they tie), two are summed.
    for (let i = 1; i <= 12; i++) await click(anonymous, { "user-agent": chrome, accept: html, referer: `https://site${String(i).padStart(2, "0")}.example/` });
    await expect
      .poll(async () => ((await (await fetch(`${app.url}/${anonymous}/analytics`)).json()) as Analytics).totals.all)
      .toBe(12);

    await page.goto(`${app.url}/#/stats/${anonymous}`);
    await expect.poll(() => total("Humans").textContent()).toBe("12");
    const referrers = page.getByRole("region", { name: "Referrers" }).locator("tbody tr");
    expect(await referrers.count()).toBe(11);
    expect(await counts(row("Referrers", "site10.example"))).toEqual(["1", "0"]);
    expect(await row("Referrers", "site11.example").count()).toBe(0);
    expect(await counts(referrers.last())).toEqual(["2", "0"]);
    expect(await referrers.last().getByRole("rowheader").textContent()).toBe("Other");
  });

  test("an unknown code: the API's not-found message, no blank page", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/#/stats/nosuchcode1`);
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("url not found");
    expect(await page.getByRole("heading", { name: "Link nosuchcode1" }).isVisible()).toBe(true);
  });

  test("the owner's deleted link: its facts and clicks still, which the public stats no longer answer", async () => {
    const { page } = browser;
    const gone = await fetch(`${app.url}/links/${code}`, { method: "DELETE", headers: { authorization: `Bearer ${owner.token}` } });
    expect(gone.status).toBe(200);
    expect((await fetch(`${app.url}/${code}/stats`)).status).toBe(404);
    await signInAs(owner);
    await page.goto(`${app.url}/#/stats/${code}`);
    await expect.poll(() => total("All").textContent()).toBe("3");
    expect(await page.locator(".clicks").textContent()).toBe("3");
    expect(await page.getByRole("alert").count()).toBe(0);

    await signInAs(await account("not-the-owner"));
    await page.goto(`${app.url}/#/stats/${code}`);
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("url not found");
  });

  test("no page broke its Content-Security-Policy", () => {
    expect(cspViolations).toEqual([]);
  });
});
