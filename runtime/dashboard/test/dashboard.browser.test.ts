// The development dashboard in a real browser against the app as `npm run dev` serves it:
// opened without and then with the link run printed, the catalog, the explorer's call and
// its trace (live in the list, then its waterfall), the flow diagram, a cron run, the SQL
// console, pub/sub and buckets, and the page once its access ends. The tests run in order
// and share one app and one browser: the link the explorer shortens is the row the SQL
// console reads and the QR image the buckets page lists.
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { launchBrowser, saveScreenshot, type Browser } from "../../test/browser.ts";
import { startDevApp, type DevApp } from "./dev-app.ts";

const screenshotDir = fileURLToPath(new URL("./screenshots", import.meta.url));
const screenshot = (page: Page, name: string) => saveScreenshot(page, screenshotDir, name);

let app: DevApp;
let browser: Browser;

beforeAll(async () => {
  [app, browser] = await Promise.all([startDevApp(), launchBrowser({ viewport: { width: 1280, height: 800 } })]);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
}, 60_000);

describe("the development dashboard", () => {
  let traceId = "";
  let code = "";

  const open = async (page: Page, hash: string) => {
    await page.goto(`${app.dashboardUrl}/${hash}`);
    await expect.poll(() => page.getByTestId("link-status").getAttribute("data-state")).toBe("connected");
  };

  test("without run's link the page says to open it; the link opens the dashboard and leaves the address bar", async () => {
    const { page } = browser;
    const refused = await page.goto(`${app.dashboardUrl}/`);
    expect(refused?.status()).toBe(401);
    expect(await page.locator("h1").textContent()).toBe("Open the link from your terminal");
    expect(await page.locator("pre").textContent()).toBe(`[run] development dashboard: ${app.dashboardUrl}/?token=…`);
    await screenshot(page, "no-access");

    await page.goto(app.dashboardLink);
    expect(page.url()).toBe(`${app.dashboardUrl}/`);
    await expect.poll(() => page.getByTestId("link-status").getAttribute("data-state")).toBe("connected");
    const [cookie] = await browser.context.cookies(app.dashboardUrl);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict", value: new URL(app.dashboardLink).searchParams.get("token") });
    expect(await page.evaluate<string>("document.cookie")).toBe(""); // HttpOnly: no script on any page reads it
  });

  test("the catalog lists the services, POST /shorten under links", async () => {
    const { page } = browser;
    await open(page, "");
    const row = page.locator('[data-testid="service-links"] [data-endpoint="links.shorten"]');
    await expect.poll(() => row.textContent()).toMatch(/^POST\/shorten\s*shorten/);
    expect(await page.getByTestId("service-analytics").count()).toBe(1);
    await screenshot(page, "catalog");
  });

  test("the explorer sends POST /shorten: 200, and its trace appears in the open traces list without a reload", async () => {
    const { page } = browser;
    // The traces list open beside it, as a developer keeps it: it must hear of the trace by itself.
    const traces = await browser.context.newPage();
    await open(traces, "#/traces");
    let reloaded = false;
    traces.on("load", () => (reloaded = true));

    await page.locator('[data-endpoint="links.shorten"] a').click();
    await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/services/links/shorten");
    const explorer = page.getByTestId("explorer");
    await explorer.getByLabel("Body (JSON)").fill(JSON.stringify({ url: "https://example.com/from-the-dashboard" }));
    await explorer.getByRole("button", { name: "Send" }).click();
    const result = explorer.getByTestId("call-result");
    await expect.poll(() => result.getAttribute("data-status")).toBe("200");
    const body = JSON.parse((await result.getByTestId("call-body").textContent()) ?? "") as { code: string; shortUrl: string; qrCodeUrl: string };
    expect(body.shortUrl).toBe(`${app.url}/${body.code}`);
    code = body.code;
    traceId = decodeURIComponent((await result.getByTestId("call-trace").getAttribute("href"))!.replace("#/traces/", ""));
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    await screenshot(page, "endpoint");

    const row = traces.locator(`[data-testid="trace-row"][data-trace-id="${traceId}"]`);
    await expect.poll(() => row.textContent()).toMatch(/links\.shorten.*POST\s*\/shorten.*200/);
    expect(await row.getAttribute("class")).toBe("fresh"); // it came over the event stream
    expect(reloaded).toBe(false);
    await screenshot(traces, "traces");
    await traces.close();
  });

  test("the trace's waterfall shows its SQL statement and its publish to url-shortened", async () => {
    const { page } = browser;
    await page.locator('[data-testid="call-trace"]').click();
    const spans = page.getByTestId("span");
    // The publish may finish a moment after the answer; the page shows the trace as fetched.
    await expect
      .poll(async () => {
        await page.reload();
        await page.getByTestId("waterfall").waitFor();
        return spans.evaluateAll((rows) => rows.map((r) => r.getAttribute("data-kind")));
      })
      .toEqual(expect.arrayContaining(["request", "handler", "sql", "publish"]));
    const insert = page.locator('[data-testid="span"][data-kind="sql"]', { hasText: /INSERT INTO urls/ });
    expect(await insert.count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="span"][data-kind="publish"]').textContent()).toContain("url-shortened");

    await insert.first().locator("button").click();
    await expect.poll(() => page.getByTestId("span-detail").textContent()).toContain("INSERT INTO urls");
    // docs/images/dashboard.png was copied from this one by hand: a test run leaves tracked files alone.
    await screenshot(page, "trace");
  });

  test("the flow diagram shows links publishing to url-shortened, which analytics subscribes to", async () => {
    const { page } = browser;
    await open(page, "#/flow");
    const flow = page.getByTestId("flow");
    await flow.waitFor();
    const publishes = flow.locator('[data-edge="service:links->topic:url-shortened"]');
    const subscribes = flow.locator('[data-edge="topic:url-shortened->service:analytics"]');
    expect(await publishes.getAttribute("data-kind")).toBe("publishes");
    expect(await subscribes.getAttribute("data-kind")).toBe("subscribes");
    expect(await subscribes.textContent()).toContain("track-analytics");
    await screenshot(page, "flow");
    await flow.locator('[data-node-id="service:links"]').click();
    await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/services/links");
  });

  test("the cron page runs a job now and shows it succeeded, with its trace", async () => {
    const { page } = browser;
    await open(page, "#/cron");
    const job = page.getByTestId("cron-cleanup-stale-urls");
    await job.getByRole("button", { name: "Run now" }).click();
    const result = job.getByTestId("run-result");
    await expect.poll(() => result.getAttribute("data-outcome"), { timeout: 30_000 }).toBe("succeeded");
    expect(await result.getByRole("link", { name: "View its trace" }).count()).toBe(1);
    await expect.poll(() => job.locator("table.runs tbody tr").first().textContent()).toMatch(/succeeded\s*manual/);
    await screenshot(page, "cron");
  });

  test("the databases page shows url's applied migrations; its SQL console reads the shortened link's row, and refuses an INSERT (only a query goes through its cursor)", async () => {
    const { page } = browser;
    await open(page, "#/databases/url");
    const migrations = page.locator('section[aria-labelledby="migrations-h"]');
    await expect.poll(() => migrations.locator("tr").allTextContents()).toEqual([
      "1_create_urls.up.sqlapplied",
      "2_create_outbox.up.sqlapplied",
      "3_index_urls_created_at.up.sqlapplied",
      "4_add_created_by.up.sqlapplied",
      "5_add_stale_since.up.sqlapplied",
      "6_evict_cached_links.up.sqlapplied",
      "7_create_click_writers.up.sqlapplied",
      "8_manage_links.up.sqlapplied",
      "9_moderation.up.sqlapplied",
      "10_click_analytics.up.sqlapplied",
      "11_evict_on_disabled_reason.up.sqlapplied",
      "12_link_workspaces.up.sqlapplied",
      "13_tags.up.sqlapplied",
      "14_link_reports.up.sqlapplied",
      "15_imported_links.up.sqlapplied",
      "16_link_event_outbox.up.sqlapplied",
      "17_domains_and_redirects.up.sqlapplied",
      "18_workspace_links_nulls_last.up.sqlapplied",
      "19_workspace_search.up.sqlapplied",
      "20_workspace_click_analytics.up.sqlapplied",
      "21_link_click_order.up.sqlapplied",
      "22_urls_fillfactor.up.sqlapplied",
    ]);
    const sqlConsole = page.getByTestId("sql-console");
    const query = sqlConsole.getByLabel("SQL query");
    await query.fill(`SELECT code, original_url, clicks FROM urls WHERE code = '${code}'`);
    await sqlConsole.getByRole("button", { name: "Run" }).click();
    const results = sqlConsole.getByTestId("sql-results");
    await expect.poll(() => results.locator("tbody tr").allTextContents()).toEqual([`${code}https://example.com/from-the-dashboard0`]);
    expect(await sqlConsole.getByTestId("sql-summary").textContent()).toMatch(/^1 row in /);
    await screenshot(page, "databases");

    await query.fill("INSERT INTO urls (code, original_url) VALUES ('zzzzzz', 'https://example.com/')");
    await sqlConsole.getByRole("button", { name: "Run" }).click();
    const refused = sqlConsole.getByTestId("error");
    await expect.poll(() => refused.textContent()).toMatch(/syntax error at or near "INSERT"/);
    expect(await results.count()).toBe(0);
    await screenshot(page, "databases-refused");
  });

  test("the pub/sub page shows url-shortened, its publisher and its subscription", async () => {
    const { page } = browser;
    await open(page, "#/pubsub");
    const topic = page.getByTestId("topic-url-shortened");
    await expect.poll(() => topic.textContent()).toContain("links");
    await expect.poll(() => topic.getByTestId("subscription-track-analytics").textContent()).toContain("analytics");
    await screenshot(page, "pubsub");
  });

  test("the buckets page lists qr-codes and the shortened link's QR image in it", async () => {
    const { page } = browser;
    await open(page, "#/buckets/qr-codes");
    const object = page.getByTestId("objects").getByTestId("object").filter({ hasText: `${code}.png` });
    await expect.poll(() => object.textContent()).toMatch(/image\/png/);
    expect(await object.getByRole("link", { name: "public URL" }).count()).toBe(1);
    await screenshot(page, "buckets");
  });

  test("once its access ends (run started again, with a new secret), the open page says to open the new link", async () => {
    const { page, context } = browser;
    await open(page, "#/services");
    const [cookie] = await context.cookies(app.dashboardUrl);
    await context.addCookies([{ ...cookie!, value: "a-secret-of-an-earlier-run-of-run-0123456789" }]);
    await page.evaluate('location.hash = "#/cron"');
    const lockedOut = page.getByTestId("locked-out");
    await lockedOut.waitFor();
    expect(await lockedOut.locator("h1").textContent()).toBe("Open the link from your terminal");
    expect(await page.getByTestId("link-status").count()).toBe(0);
    await screenshot(page, "locked-out");
  });
});
