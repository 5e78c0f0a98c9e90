// The web front end in a real browser against the real app (its own process, embedded
// PostgreSQL, QR codes on): what a visitor does, page by page. The tests run in order
// and share one browser: the link shortened first is followed and counted after.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { screenshot, type Browser } from "./browser.ts";
import { startBrowserTestBed, type BrowserApp, type BrowserTestBed, type TargetServer } from "./servers.ts";

let bed: BrowserTestBed | undefined;
let app: BrowserApp;
let target: TargetServer;
let browser: Browser;
let cspViolations: string[] = [];

beforeAll(async () => {
  bed = await startBrowserTestBed();
  ({ app, target, browser, cspViolations } = bed);
}, 120_000);

afterAll(() => bed?.close(), 60_000);

// Run in the page; written as strings because this file is type-checked without the DOM's types.
const focusedText = () => browser.page.evaluate<string | null>("document.activeElement?.textContent ?? null");

describe("the web front end", () => {
  let shortUrl = "";
  let code = "";

  test("shortens a URL and shows the short link and its QR code", async () => {
    const { page } = browser;
    await page.goto(app.url);
    await expect.poll(() => page.title()).toBe("Shorten a link · Short links");
    await page.getByLabel("Long URL").fill(target.url);
    await page.getByRole("button", { name: "Shorten" }).click();

    const link = page.getByRole("region", { name: "Your short link" }).getByRole("link").first();
    shortUrl = (await link.textContent()) ?? "";
    expect(shortUrl).toMatch(new RegExp(`^${app.url}/[a-z0-9]{6}$`));
    code = shortUrl.slice(-6);
    expect(await link.getAttribute("href")).toBe(shortUrl);

    const qr = page.getByRole("img", { name: `QR code for ${shortUrl}` });
    // naturalWidth is 0 until the PNG has loaded and decoded: a broken image stays at 0.
    await expect.poll(() => qr.evaluate((img: { complete: boolean; naturalWidth: number }) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await screenshot(page, "shorten");
  });

  test("the short link leads to the target page through a 302", async () => {
    const response = await browser.page.goto(shortUrl);
    expect(response?.url()).toBe(target.url);
    expect(await browser.page.title()).toBe("Target page");
    const redirect = response!.request().redirectedFrom();
    expect(redirect?.url()).toBe(shortUrl);
    expect((await redirect!.response())?.status()).toBe(302);
  });

  test("the stats page shows the click, the original URL, and the click chart", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/#/stats/${code}`);
    await expect.poll(() => page.locator(".clicks").textContent()).toBe("1");
    expect(await page.getByRole("link", { name: target.url }).getAttribute("href")).toBe(target.url);
    // An anonymous link's clicks are anyone's to see. They are stored in batches: reload until this one is.
    const chart = page.getByRole("img", { name: / from / });
    await expect
      .poll(async () => {
        await page.reload();
        await chart.waitFor();
        return chart.getAttribute("aria-label");
      })
      .toMatch(/^1 click \((1 by humans, 0|0 by humans, 1) by bots\) from .+; the most, 1, on .+\.$/);
    await screenshot(page, "stats");
  });

  test("signs up, logs in, sees a new link under my links, and logs out", async () => {
    const { page } = browser;
    const email = `ada-${Date.now()}@example.com`;
    await page.goto(`${app.url}/#/signup`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Name").fill("Ada");
    expect(await page.getByLabel("Age").count()).toBe(0); // sign-up no longer asks for it
    await page.getByLabel("Password").fill("correct horse battery");
    await screenshot(page, "signup");
    await page.getByRole("button", { name: "Sign up" }).click();

    await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/login");
    expect(await focusedText()).toBe("Log in"); // focus moved to the new page's heading
    expect(await page.getByLabel("Email").inputValue()).toBe(email);
    await page.getByLabel("Password").fill("correct horse battery");
    await screenshot(page, "login");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect.poll(() => page.getByText("No links yet.").isVisible()).toBe(true);

    await page.getByRole("navigation").getByRole("link", { name: "Shorten" }).click();
    const mine = `${target.url}&mine=1`;
    await page.getByLabel("Long URL").fill(mine);
    await page.getByRole("button", { name: "Shorten" }).click();
    const myShortUrl = await page.getByRole("region", { name: "Your short link" }).getByRole("link").first().textContent();

    await page.getByRole("navigation").getByRole("link", { name: "My links" }).click();
    await expect.poll(focusedText).toBe("My links");
    const items = page.getByRole("listitem").filter({ hasText: mine });
    await expect.poll(() => items.count()).toBe(1);
    expect(await items.getByRole("link").first().textContent()).toBe(myShortUrl);
    // Only the signed-in user's links: the anonymous one shortened first is not among them.
    expect(await page.getByRole("link", { name: shortUrl, exact: true }).count()).toBe(0);
    await screenshot(page, "links");

    await page.getByRole("button", { name: "Log out" }).click();
    await expect.poll(() => page.getByRole("navigation").getByRole("link", { name: "Log in" }).isVisible()).toBe(true);
    expect(await page.evaluate<number>("localStorage.length")).toBe(0);
  });

  test("the not-found page shows, with its inline style allowed", async () => {
    const { page } = browser;
    const response = await page.goto(`${app.url}/no/such/page`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole("heading", { name: "Not found" }).isVisible()).toBe(true);
    // Its <style> sets the body's font to system-ui: blocked, the browser's default serif shows.
    expect(await page.evaluate<string>("getComputedStyle(document.body).fontFamily")).toMatch(/system-ui/);
    await screenshot(page, "not-found");
  });

  test("a javascript: URL is refused with the error next to the field", async () => {
    const { page } = browser;
    await page.goto(app.url);
    const field = page.getByLabel("Long URL");
    await field.fill("javascript:alert(1)");
    await page.getByRole("button", { name: "Shorten" }).click();
    await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true");
    const describedBy = await field.getAttribute("aria-describedby");
    expect(await page.locator(`#${describedBy}`).textContent()).toBe("url must use http or https, not javascript");
    expect(await page.getByRole("region", { name: "Your short link" }).count()).toBe(0);
    await screenshot(page, "validation");
  });

  test("a hash changed before the page listened still shows its page", async () => {
    // A page of its own: its init script is not for the other tests.
    const page = await browser.context.newPage();
    try {
      // After the first render, before the effects that subscribe to hashchange (they wait for a paint).
      await page.addInitScript(`document.addEventListener("DOMContentLoaded", () => { location.hash = "#/login"; })`);
      await page.goto(app.url);
      await expect.poll(() => page.locator("h1").textContent()).toBe("Log in");
    } finally {
      await page.close();
    }
  });

  test("no page broke its Content-Security-Policy", async () => {
    const res = await fetch(app.url);
    expect(res.headers.get("content-security-policy")).toMatch(/script-src 'self'/);
    expect(cspViolations).toEqual([]);
  });
});
