// The Domains page in a real browser against the real app: a domain added (its token and
// check URL shown), checked (DOMAIN_CHECK_CONNECT_TO sends the check to the app itself), its
// home page set, a link made on it from the shorten form's domain picker, and its removal
// refused while the link is there; its clicks on the domain's page; at 390 px and 1280 px.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Browser } from "./browser.ts";
import { startBrowserTestBed, type BrowserApp, type BrowserTestBed } from "./servers.ts";
import { newAccount, openSignedIn } from "./sign-in.ts";
import { atBothWidths } from "./widths.ts";

let bed: BrowserTestBed | undefined;
let app: BrowserApp;
let browser: Browser;
let cspViolations: string[] = [];

beforeAll(async () => {
  bed = await startBrowserTestBed((url) => ({ DOMAIN_CHECK_CONNECT_TO: `127.0.0.1:${new URL(url).port}` }));
  ({ app, browser, cspViolations } = bed);
}, 120_000);

afterAll(async () => {
  await bed?.close();
}, 60_000);

describe("the Domains page", () => {
  test("add a domain, check it, set its home page, shorten on it, and be refused its removal", async () => {
    const account = await newAccount(app.url, `domains-${Date.now()}@example.com`, "Dom");
    const { userID } = account;
    const { page } = browser;
    await page.setViewportSize({ width: 1280, height: 900 });
    await openSignedIn(page, app.url, account, `/#/workspaces/${userID}`);
    await page.getByRole("link", { name: "Domains" }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toMatch(/^Domains/);
    await page.getByText("No domains yet.").waitFor();

    // A refused host says why.
    await page.getByLabel("Domain").fill("127.0.0.1");
    await page.getByRole("button", { name: "Add domain" }).click();
    await page.getByText(/not an IP address/).first().waitFor();

    const host = `go-${Date.now()}.example.com`;
    await page.getByLabel("Domain").fill(host);
    await page.getByRole("button", { name: "Add domain" }).click();
    const item = page.locator("li.webhook");
    await expect.poll(() => item.count()).toBe(1);
    await expect.poll(() => item.locator(".badge").innerText()).toBe("Not verified");
    expect(await item.innerText()).toContain(`http://${host}/.well-known/url-shortener/`);
    await atBothWidths(page, "domains-added");

    await item.getByRole("button", { name: "Check", exact: true }).click();
    await expect.poll(() => item.locator(".badge").innerText()).toBe("Verified");

    await item.getByText("Home page and unknown codes").click();
    await item.getByLabel("Home page goes to").fill("https://example.com/home");
    await item.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => item.innerText()).toContain("Its home page sends visitors to https://example.com/home");
    await atBothWidths(page, "domains-verified");

    // The shorten form offers the verified domain.
    await page.goto(`${app.url}/#/`);
    await page.getByLabel("Long URL").fill("https://example.com/on-my-domain");
    await page.getByLabel("Domain", { exact: true }).selectOption(host);
    await page.getByRole("button", { name: "Shorten" }).click();
    const shortUrl = page.getByText(new RegExp(`http://${host.replace(/\./g, "\\.")}/[a-z0-9]{6}`)).first();
    await shortUrl.waitFor();
    await atBothWidths(page, "domains-shortened");

    // A click on the domain (its Host header) counts on the domain's page.
    const code = /\/([a-z0-9]{6})/.exec(await shortUrl.innerText())![1]!;
    expect(await statusOnHost(host, `/${code}`)).toBe(200);
    // The page reads the analytics once: it is opened after the click is stored.
    const domainClicks = async () => {
      const res = await fetch(`${app.url}/workspaces/${userID}/domains/${host}/analytics`, { headers: { authorization: `Bearer ${account.token}` } });
      return ((await res.json()) as { totals: { all: number } }).totals.all;
    };
    await expect.poll(domainClicks).toBe(1);
    await page.goto(`${app.url}/#/workspaces/${userID}/domains`);
    await page.getByRole("link", { name: `Clicks on ${host}` }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(`Domain ${host}`);
    await expect.poll(() => page.locator(".totals div").filter({ hasText: "All" }).locator("dd").textContent()).toBe("1");
    await atBothWidths(page, "domains-clicks");

    // Removal is refused while the link is on it.
    await page.goto(`${app.url}/#/workspaces/${userID}/domains`);
    await page.getByRole("button", { name: `Remove ${host}` }).click();
    await page.getByRole("button", { name: "Remove", exact: true }).click();
    await page.getByText(/has 1 link/).first().waitFor();
    expect(cspViolations).toEqual([]);
  }, 120_000);
});

/** The status of GET `path` on the app as sent to `host` (its Host header), as a visitor's click through the domain. */
function statusOnHost(host: string, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${app.url}${path}`, { headers: { host } }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
    });
    req.on("error", reject);
  });
}
