// The databases page when the SQL console cannot run (a DATABASE_URL user that can neither
// create roles nor is a superuser): the reason in place of the editor. The dashboard runs in
// this process on the test's databases, with a console that is off.
import { afterAll, beforeAll, expect, test } from "vitest";
import { launchBrowser, type Browser } from "../../test/browser.ts";
import { startTestServer, type TestServer } from "../../test/server.ts";
import { startTestDashboard } from "../../test/dashboard.ts";
import { accessLink } from "../../internal/dashboard/access.ts";
import type { Dashboard } from "../../internal/dashboard/server.ts";
import { createDevCalls } from "../../internal/server/runtime-routes/dev-calls.ts";

const reason = 'the database user "app" is neither a superuser nor allowed to create roles (CREATEROLE)';
let app: TestServer;
let dashboard: Dashboard;
let browser: Browser;
let secret: string;

beforeAll(async () => {
  const devCalls = createDevCalls();
  app = await startTestServer({ devCalls });
  ({ dashboard, secret } = await startTestDashboard(app.url, devCalls, { consoleLogin: async () => ({ reason }) }));
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  await app?.close();
});

test("the databases page shows why the SQL console is off, and no editor", async () => {
  const { page } = browser;
  await page.goto(accessLink(dashboard.url, secret)); // as the developer who started it
  await page.goto(`${dashboard.url}/#/databases/url`);
  const off = page.getByTestId("sql-console-off");
  await expect.poll(() => off.textContent()).toBe(`SQL consoleThe SQL console is off: ${reason}.`);
  expect(await page.getByLabel("SQL query").count()).toBe(0);
  expect(await page.getByTestId("sql-console").count()).toBe(0);
});
