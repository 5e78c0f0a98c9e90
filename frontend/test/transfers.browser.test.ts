// The Import and export page in a real browser against the real app: a CSV chosen and
// uploaded, the job's progress followed to the end with its refused rows listed by line,
// the export downloaded, at 390 and 1280 px.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startBrowserTestBed, type BrowserApp, type BrowserTestBed } from "./servers.ts";
import type { Browser } from "./browser.ts";
import { atBothWidths } from "./widths.ts";

let bed: BrowserTestBed | undefined;
let app: BrowserApp;
let browser: Browser;
let cspViolations: string[] = [];

const email = `importer-${Date.now()}@example.com`;
const password = "correct horse battery";

beforeAll(async () => {
  bed = await startBrowserTestBed();
  ({ app, browser, cspViolations } = bed);
  const created = await fetch(`${app.url}/users`, { method: "POST", body: JSON.stringify({ email, name: "Imogen", password }) });
  expect(created.status).toBe(200);
}, 120_000);

afterAll(async () => {
  await bed?.close();
}, 60_000);

describe("import and export, in the browser", () => {
  test("a CSV imports with its bad rows listed by line; the export downloads every link", async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${app.url}/#/login`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/links");

    await page.goto(`${app.url}/#/transfers`);
    await page.getByRole("heading", { name: "Import and export" }).waitFor();
    const lines = ["url,alias,title,tags"];
    for (let i = 0; i < 1200; i++) lines.push(`https://browser-import.example/${i},,Page ${i},${i % 2 ? "odd" : "even"}`);
    lines.push("not a url,,Broken,");
    lines.push("https://browser-import.example/reserved,admin,Reserved,");
    await page.getByLabel("File", { exact: true }).setInputFiles({ name: "links.csv", mimeType: "text/csv", buffer: Buffer.from(lines.join("\n")) });
    await page.getByLabel("Format").selectOption("csv");
    await page.getByRole("button", { name: "Import" }).click();

    const progress = page.getByTestId("import-progress");
    await expect.poll(() => progress.getByRole("status").textContent(), { timeout: 60_000 }).toBe("1202 of 1202 rows read · 1200 imported · 2 failed");
    await expect.poll(() => progress.locator("label").textContent()).toBe("links.csv: done");
    expect(await progress.locator("progress").evaluate((bar: { value: number; max: number }) => [bar.value, bar.max])).toEqual([1202, 1202]);
    const errorRows = progress.locator("table tbody tr");
    await expect.poll(() => errorRows.allTextContents()).toEqual([
      "1202url must be an absolute URL such as https://example.com/page",
      '1203alias "admin" is reserved: the service\'s own address /admin uses it',
    ]);
    await expect.poll(() => page.getByRole("list", { name: "Recent imports" }).textContent()).toContain("done · 1200 imported, 2 failed");
    await atBothWidths(page, "transfers-import");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export CSV" }).click()]);
    const text = await readFile((await download.path())!, "utf8");
    const rows = text.trimEnd().split("\n");
    expect(rows[0]).toBe(
      "url,alias,shortUrl,title,description,tags,createdAt,expiresAt,maxClicks,clicks,hasPassword,status," +
        "domain,redirectType,forwardQuery,startsAt,fallbackUrl,allowIndexing,previewTitle,previewDescription,previewImage,rules",
    );
    expect(rows).toHaveLength(1201);
    expect(download.suggestedFilename()).toMatch(/^links-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(cspViolations).toEqual([]);
  }, 120_000);
});
