// The pages GET /:code shows a browser for links that do not simply redirect, in a real
// browser against the real app: a password link's form (wrong, then right, arriving at the
// target through POST /:code's 303) and an expired link's page, with no Content-Security-Policy
// violation on either (the form's redirect to another origin included).
import { afterAll, beforeAll, expect, test } from "vitest";
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

async function shorten(body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${app.url}/shorten`, { method: "POST", body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { shortUrl: string }).shortUrl;
}

test("a password link: the form, a wrong password said so, the right one leads to the target", async () => {
  const { page } = browser;
  const shortUrl = await shorten({ url: target.url, password: "open sesame" });
  const first = await page.goto(shortUrl);
  expect(first?.status()).toBe(401);
  expect(await page.title()).toBe("This link needs a password");
  await screenshot(page, "link-password");

  await page.getByLabel("Password").fill("guess");
  await page.getByRole("button", { name: "Open the link" }).click();
  await expect.poll(() => page.getByRole("alert").textContent()).toBe("Wrong password. Try again.");

  await page.getByLabel("Password").fill("open sesame");
  await page.getByRole("button", { name: "Open the link" }).click();
  await expect.poll(() => page.title()).toBe("Target page");
  expect(page.url()).toBe(target.url);
  expect(cspViolations).toEqual([]);
});

test("an expired link: a page saying so, status 404", async () => {
  const { page } = browser;
  const shortUrl = await shorten({ url: target.url, expiresAt: new Date(Date.now() + 1000) });
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const response = await page.goto(shortUrl);
  expect(response?.status()).toBe(404);
  expect(await page.getByRole("heading", { name: "This link has expired" }).isVisible()).toBe(true);
  await screenshot(page, "link-expired");
  expect(cspViolations).toEqual([]);
});
