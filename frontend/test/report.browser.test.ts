// The public report form in a real browser against the real app: reached from a link's
// stats page, sent without an account, its success said plainly, and the limit per
// address (429) said as such. At a phone's width as at a desktop's.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Browser } from "./browser.ts";
import { startBrowserTestBed, type BrowserApp, type BrowserTestBed } from "./servers.ts";
import { atBothWidths } from "./widths.ts";

let bed: BrowserTestBed | undefined;
let app: BrowserApp;
let browser: Browser;
let cspViolations: string[] = [];
const codes: string[] = [];

beforeAll(async () => {
  bed = await startBrowserTestBed({ REPORT_LIMIT_PER_ADDRESS: "2" });
  ({ app, browser, cspViolations } = bed);
  for (const path of ["a", "b", "c"]) {
    const res = await fetch(`${app.url}/shorten`, { method: "POST", body: JSON.stringify({ url: `https://shady.example/${path}` }) });
    codes.push(((await res.json()) as { code: string }).code);
  }
}, 120_000);

afterAll(() => bed?.close(), 60_000);

async function fileReport(code: string, details: string): Promise<void> {
  const { page } = browser;
  await page.goto(`${app.url}/#/report/${code}`);
  await page.getByLabel("Reason").selectOption("phishing");
  await page.getByLabel("What you saw (optional)").fill(details);
  await page.getByRole("button", { name: "Send report" }).click();
}

describe("the report form", () => {
  test("a link's stats page leads to it; a visitor reports the link and is told it was sent", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/#/stats/${codes[0]}`);
    await page.getByRole("link", { name: "Report this link" }).click();
    await expect.poll(() => page.evaluate<string>("location.hash")).toBe(`#/report/${codes[0]}`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe(`Report link ${codes[0]}`);
    await page.getByLabel("Reason").selectOption("phishing");
    await page.getByLabel("What you saw (optional)").fill("A fake bank login page asking for my card number.");
    await page.getByLabel("Your email (optional, to be answered)").fill("visitor@example.com");
    await atBothWidths(page, "report-form");
    await page.getByRole("button", { name: "Send report" }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("Report sent");
    expect(await page.getByRole("status").innerText()).toContain(`the administrators will look at ${codes[0]}`);
    await atBothWidths(page, "report-sent");
  });

  test("an unknown link is said to be so", async () => {
    const { page } = browser;
    await fileReport("nope99", "gone?");
    await expect.poll(() => page.getByRole("alert").innerText()).toBe("url not found");
  });

  test("past the reports an address may send, the form says to wait", async () => {
    const { page } = browser;
    await fileReport(codes[1]!, "Another one.");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("Report sent");
    await fileReport(codes[2]!, "And a third.");
    await expect.poll(() => page.getByRole("alert").innerText()).toMatch(/^You have sent too many reports from this address\. Try again in \d+ minutes\.$/);
    await atBothWidths(page, "report-limited");
    expect(cspViolations).toEqual([]);
  });
});
