// The caches page in a real browser: the clusters of a fixture app (parser/testdata/caches/valid)
// with their keyspaces, and a key lookup of keys this process's keyspaces wrote. The dashboard
// runs in this process, where the in-process store is.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { CacheCluster, expireInMinutes, StructKeyspace } from "../../encore.dev/storage/cache/mod.ts";
import { accessLink } from "../../internal/dashboard/access.ts";
import { parseApp } from "../../internal/parser/mod.ts";
import { createDevCalls } from "../../internal/server/runtime-routes/dev-calls.ts";
import { launchBrowser, saveScreenshot, type Browser } from "../../test/browser.ts";
import { closedPort } from "../../test/closed-port.ts";
import { startTestDashboard, type TestDashboard } from "../../test/dashboard.ts";
import { fixture } from "../../test/parser-fixtures.ts";

const screenshotDir = fileURLToPath(new URL("./screenshots", import.meta.url));
const users = new StructKeyspace<{ id: string; region: string }, { name: string }>(new CacheCluster("sessions"), {
  keyPattern: "user/:region/:id",
  defaultExpiry: expireInMinutes(60),
});
let dash: TestDashboard;
let browser: Browser;

beforeAll(async () => {
  dash = await startTestDashboard(`http://127.0.0.1:${await closedPort()}`, createDevCalls(), { meta: parseApp(fixture("caches/valid")) });
  browser = await launchBrowser({ viewport: { width: 1280, height: 800 } });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await dash?.dashboard.close();
});

test("the caches page lists the clusters and a cluster's keyspaces, and looks a key up", async () => {
  await users.set({ id: "42", region: "eu" }, { name: "Ada Lovelace" });
  const { page } = browser;
  await page.goto(accessLink(dash.dashboard.url, dash.secret)); // as the developer who started it
  await page.goto(`${dash.dashboard.url}/#/caches/sessions`);
  await expect.poll(() => page.getByTestId("clusters").textContent()).toContain("sessionsvolatile-ttl2");
  const keyspaces = page.getByTestId("keyspaces").getByTestId("keyspace");
  await expect.poll(() => keyspaces.count()).toBe(2);
  expect(await keyspaces.nth(1).textContent()).toBe("user/:region/:idStructKeyspaceUserKey → { name: string }expireInHours(1)svc/cache.ts:10");

  const lookup = page.getByTestId("key-lookup");
  await lookup.getByLabel("Key").fill("user/eu/42");
  await lookup.getByRole("button", { name: "Look up" }).click();
  const value = lookup.getByTestId("lookup-value");
  await expect.poll(() => value.textContent()).toBe('{\n  "name": "Ada Lovelace"\n}');
  expect(await lookup.getByTestId("lookup-ttl").textContent()).toMatch(/^expires in (59 min \d+ s|1 h 0 min)$/);
  await saveScreenshot(page, screenshotDir, "caches");

  await lookup.getByLabel("Key").fill("user/eu/43");
  await lookup.getByRole("button", { name: "Look up" }).click();
  await expect.poll(() => lookup.getByTestId("lookup-result").textContent()).toBe("No key user/eu/43 in sessions (never written, deleted or expired).");
});
