// Sessions in real browsers against the real app, with login tokens that last 4 seconds
// (LOGIN_TOKEN_SECONDS): sign-up without age, a page that stays signed in past its token's
// lifetime and through a refused token, the Sessions page, signing out everywhere from
// one browser signing out another, and Log out ending the session on the server. The
// tests run in order and share the browsers and the account.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Page } from "playwright-core";
import { saveScreenshot } from "../../runtime/test/browser.ts";
import { launchBrowser, screenshot, type Browser } from "./browser.ts";
import { startBrowserTestBed, type BrowserApp, type BrowserTestBed } from "./servers.ts";

let bed: BrowserTestBed | undefined;
let app: BrowserApp;
let browser: Browser;
/** Another device: its own profile, so its own cookies and storage. */
let phone: Browser | undefined;
let cspViolations: string[] = [];

const email = `sam-${Date.now()}@example.com`;
const password = "correct horse battery";

beforeAll(async () => {
  bed = await startBrowserTestBed({ LOGIN_TOKEN_SECONDS: "4" });
  ({ app, browser, cspViolations } = bed);
}, 120_000);

afterAll(async () => {
  await phone?.close();
  await bed?.close();
}, 60_000);

interface Stored {
  token: string;
  expiresAt: string;
}

const stored = (page: Page) => page.evaluate<Stored | null>(`JSON.parse(localStorage.getItem("url-shortener.session"))`);

/** Both widths the pages must work at, looked at by a person: frontend/test/screenshots and /tmp/shots-sessions. */
async function shots(page: Page, name: string): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await page.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(width);
    await screenshot(page, `${name}-${width}`);
    await saveScreenshot(page, "/tmp/shots-sessions", `${name}-${width}`);
  }
  await page.setViewportSize({ width: 900, height: 720 });
}

async function logIn(page: Page): Promise<void> {
  await page.goto(`${app.url}/#/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/links");
}

// Counted rather than seen, hidden ones too: on a phone the nav's entries fold behind Menu until it is opened.
const signedOutNav = (page: Page) => page.getByRole("navigation").getByRole("link", { name: "Log in", includeHidden: true });

describe("sessions, in the browser", () => {
  test("signs up without an age, then logs in; the refresh cookie is HttpOnly, SameSite=Strict, for /auth only", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/#/signup`);
    expect(await page.getByLabel("Age").count()).toBe(0);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Name").fill("Sam");
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Sign up" }).click();
    await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/login");
    await logIn(page);
    const cookies = await browser.context.cookies(app.url + "/auth/refresh");
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite, c.path])).toEqual([["refresh_token", true, "Strict", "/auth"]]);
    expect(await page.evaluate<string>("document.cookie")).toBe("");
  });

  test("stays signed in past the login token's lifetime: the next action gets a new token from the session", async () => {
    const { page } = browser;
    const first = (await stored(page))!;
    // The token's end, on the clock: what the test waits for is that moment.
    await expect.poll(() => Date.now() > Date.parse(first.expiresAt) + 500, { timeout: 10_000, interval: 250 }).toBe(true);
    await page.goto(`${app.url}/#/keys`);
    await expect.poll(() => page.getByText("No keys yet.").isVisible()).toBe(true);
    const renewed = (await stored(page))!;
    expect(renewed.token).not.toBe(first.token);
    expect(Date.parse(renewed.expiresAt)).toBeGreaterThan(Date.now());
    expect(await signedOutNav(page).count()).toBe(0);
  });

  test("a token the server refuses (401) is renewed once and the call made again: the page stays signed in", async () => {
    const { page } = browser;
    // Far from its end by the page's reckoning, so it is sent as it is and the server's 401 is what renews it.
    await page.evaluate(`localStorage.setItem("url-shortener.session", JSON.stringify({ ...JSON.parse(localStorage.getItem("url-shortener.session")), token: "not.a.token", expiresAt: new Date(Date.now() + 3600000).toISOString(), receivedAt: Date.now() }))`);
    await page.goto(`${app.url}/#/links`);
    await page.goto(`${app.url}/#/keys`);
    await expect.poll(() => page.getByText("No keys yet.").isVisible()).toBe(true);
    const renewed = (await stored(page))!;
    expect(renewed.token).not.toBe("not.a.token");
    const check = await fetch(`${app.url}/me/sessions`, { headers: { authorization: `Bearer ${renewed.token}` } });
    expect(check.status).toBe(200);
    expect(await signedOutNav(page).count()).toBe(0);
  });

  test("the Sessions page lists this browser and the phone, and signs the phone out alone", async () => {
    phone = await launchBrowser({ viewport: { width: 390, height: 800 } });
    await logIn(phone.page);
    const { page } = browser;
    await page.goto(`${app.url}/#/sessions`);
    const items = page.getByRole("list", { name: "Your sessions" }).getByRole("listitem");
    await expect.poll(() => items.count()).toBe(2);
    expect(await items.filter({ hasText: "This browser" }).count()).toBe(1);
    await shots(page, "sessions");

    const other = items.filter({ hasNotText: "This browser" });
    await other.getByRole("button", { name: /^Sign out / }).click();
    await other.getByRole("group").getByRole("button", { name: "Sign out" }).click();
    await expect.poll(() => items.count()).toBe(1);
    expect(await page.locator("main p[role=status]").textContent()).toMatch(/^Signed out /);
    // The phone's page finds out at its next call: signed out.
    await phone.page.goto(`${app.url}/#/keys`);
    await expect.poll(() => signedOutNav(phone!.page).count()).toBe(1);
  });

  test("Sign out everywhere signs out the other browser at once, and this one", async () => {
    await logIn(phone!.page);
    const { page } = browser;
    await page.goto(`${app.url}/#/sessions`);
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await shots(page, "sessions-sign-out-everywhere");
    await page.getByRole("group", { name: "Sign out everywhere" }).getByRole("button", { name: "Sign out everywhere" }).click();
    await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/login");
    expect(await signedOutNav(page).count()).toBe(1);

    // The phone is on My links (where logging in took it): its next call is refused, and so is its refresh.
    await phone!.page.goto(`${app.url}/#/keys`);
    await expect.poll(() => signedOutNav(phone!.page).count()).toBe(1);
    expect(await stored(phone!.page)).toBeNull();
    const refused = await phone!.page.evaluate<number>(`fetch("/auth/refresh", { method: "POST" }).then((r) => r.status)`);
    expect(refused).toBe(401);
  });

  test("a page opened after its session ended says so at once: signed out before any action", async () => {
    // The phone's session ended above (signed out everywhere); its page is opened again with
    // the old token put back, long expired, as a page closed days ago would hold it.
    const page = phone!.page;
    await page.evaluate(
      `localStorage.setItem("url-shortener.session", JSON.stringify({ token: "old.token.here", email: "${email}", expiresAt: "2026-01-01T00:00:00.000Z" }))`,
    );
    await page.goto(`${app.url}/#/`);
    await page.reload();
    await expect.poll(() => signedOutNav(page).count()).toBe(1);
    expect(await stored(page)).toBeNull();
  });

  test("Log out ends the session on the server and drops the cookie", async () => {
    const { page } = browser;
    await logIn(page);
    await page.getByRole("button", { name: "Log out" }).click();
    await expect.poll(() => signedOutNav(page).count()).toBe(1);
    expect(await browser.context.cookies(app.url + "/auth/refresh")).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
