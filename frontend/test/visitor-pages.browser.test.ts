// What a visitor's browser shows for a short link that does not simply redirect, against the
// real app: a mistyped code (unknown, not a code at all, or a longer path the web front end
// answers), an expired, used-up, deleted or disabled link, a password link's form and its
// wait page. One look for all, light and dark, at a phone's width and a desktop's; each says
// what happened and links home; no Content-Security-Policy violation on any.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Page } from "playwright-core";
import type { Browser } from "./browser.ts";
import { startBrowserTestBed, type BrowserApp, type BrowserTestBed, type TargetServer } from "./servers.ts";
import { atBothWidths } from "./widths.ts";

const adminEmail = "pages-admin@example.com";
const password = "correct horse battery";

let bed: BrowserTestBed | undefined;
let app: BrowserApp;
let target: TargetServer;
let browser: Browser;
let cspViolations: string[] = [];
let token = "";

async function call(method: string, path: string, body?: unknown, bearer?: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: bearer ? { authorization: `Bearer ${bearer}` } : {},
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}`).toBe(200);
  const text = await res.text();
  return (text === "" ? {} : JSON.parse(text)) as Record<string, unknown>;
}

async function signUp(base: string): Promise<void> {
  const res = await fetch(`${base}/users`, { method: "POST", body: JSON.stringify({ email: adminEmail, name: "Pat Pages", age: 40, password }) });
  expect(res.status).toBe(200);
}

beforeAll(async () => {
  bed = await startBrowserTestBed({ ADMIN_EMAILS: adminEmail }, signUp);
  ({ app, target, browser, cspViolations } = bed);
  token = (await call("POST", "/auth/login", { email: adminEmail, password })).token as string;
}, 180_000);

afterAll(() => bed?.close(), 60_000);

async function shorten(body: Record<string, unknown>): Promise<{ code: string; shortUrl: string }> {
  return (await call("POST", "/shorten", body, token)) as { code: string; shortUrl: string };
}

const heading = (page: Page) => page.getByRole("heading", { level: 1 }).textContent();

/** The page at `url`: its status, heading and link home, checked at both widths in light and dark. */
async function expectPage(url: string, status: number, title: string, said: RegExp, name: string, home = `${app.url}/`): Promise<void> {
  const { page } = browser;
  const response = await page.goto(url);
  expect(response?.status()).toBe(status);
  expect(await heading(page)).toBe(title);
  expect(await page.locator("main").innerText()).toMatch(said);
  expect(await page.getByRole("link").last().getAttribute("href")).toBe(home);
  await lightAndDark(page, name);
  expect(cspViolations).toEqual([]);
}

/** Screenshots at both widths, light then dark; the colours are the app's in each. */
async function lightAndDark(page: Page, name: string): Promise<void> {
  const background = () => page.evaluate<string>("getComputedStyle(document.documentElement).backgroundColor");
  await page.emulateMedia({ colorScheme: "light" });
  expect(await background()).toBe("rgb(251, 251, 250)");
  await atBothWidths(page, `visitor-${name}`);
  await page.emulateMedia({ colorScheme: "dark" });
  expect(await background()).toBe("rgb(22, 22, 24)");
  expect(await page.evaluate<string>("getComputedStyle(document.querySelector('h1')).color")).toBe("rgb(236, 236, 238)");
  await atBothWidths(page, `visitor-${name}-dark`);
  await page.emulateMedia({ colorScheme: "light" });
}

describe("a mistyped link", () => {
  test("an unknown code: a page saying there is no link there, not JSON", async () => {
    await expectPage(`${app.url}/nosuch1`, 404, "Link not found", /There is no link at this address/, "not-found");
  });

  test("a path that is no code (a dot, too long) gets the same page", async () => {
    for (const path of ["a.b", "x".repeat(70)]) {
      const response = await browser.page.goto(`${app.url}/${path}`);
      expect(response?.status()).toBe(404);
      expect(response?.headers()["content-type"]).toBe("text/html; charset=utf-8");
      expect(await heading(browser.page)).toBe("Link not found");
    }
  });

  test("a longer path, answered by the web front end, looks the same", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/nosuch1`);
    const rules = "[...document.styleSheets].flatMap((s) => [...s.cssRules].map((r) => r.cssText)).join('\\n')";
    const linkPage = await page.evaluate<string>(rules);
    const response = await page.goto(`${app.url}/no/such/page`);
    expect(response?.status()).toBe(404);
    expect(await heading(page)).toBe("Page not found");
    expect(await page.evaluate<string>(rules)).toBe(linkPage);
    await lightAndDark(page, "front-end-not-found");
    expect(cspViolations).toEqual([]);
  });

  test("an API client still gets Encore's JSON 404", async () => {
    for (const path of ["nosuch1", "a.b"]) {
      const res = await fetch(`${app.url}/${path}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ code: "not_found", message: "url not found", details: null });
    }
  });
});

describe("a link that stopped redirecting", () => {
  test("expired", async () => {
    const { shortUrl } = await shorten({ url: target.url, expiresAt: new Date(Date.now() + 1000) });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await expectPage(shortUrl, 404, "This link has expired", /stop working after a certain date/, "expired");
  });

  test("used up", async () => {
    const { shortUrl } = await shorten({ url: target.url, maxClicks: 1 });
    expect((await fetch(shortUrl)).status).toBe(200);
    await expectPage(shortUrl, 404, "This link has been used up", /opened a certain number of times/, "exhausted");
  });

  test("deleted", async () => {
    const { code, shortUrl } = await shorten({ url: target.url });
    await call("DELETE", `/links/${code}`, undefined, token);
    await expectPage(shortUrl, 404, "This link was deleted", /Its owner deleted it/, "deleted");
  });

  test("disabled for abuse", async () => {
    const { code, shortUrl } = await shorten({ url: target.url });
    await call("POST", `/admin/links/${code}/disable`, {}, token);
    await expectPage(shortUrl, 404, "This link was disabled", /disabled for abuse/, "disabled");
  });
});

describe("a password link", () => {
  test("the form, then after wrong guesses the wait page saying when to try again", async () => {
    const { page } = browser;
    const { shortUrl } = await shorten({ url: target.url, password: "open sesame" });
    await expectPage(shortUrl, 401, "This link needs a password", /protected it with a password/, "password");

    let title = "";
    for (let i = 0; i < 8 && title !== "Please wait"; i++) {
      await page.getByLabel("Password").fill(`guess ${i}`);
      await page.getByRole("button", { name: "Open the link" }).click();
      await page.waitForLoadState();
      title = (await heading(page)) ?? "";
    }
    expect(title).toBe("Please wait");
    expect(await page.locator("main").innerText()).toMatch(/Try again in \d+ seconds?\./);
    await lightAndDark(page, "wait");
    expect(cspViolations).toEqual([]);
  });
});
