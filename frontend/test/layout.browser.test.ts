// Every page at a phone's width (390×844) and a desktop's (1280×800), signed in with data
// present (links with long URLs and clicks, API keys, a team workspace with a member and a
// pending invitation) and signed out: the page never scrolls sideways, and its main
// controls are on screen. Screenshots of each (frontend/test/screenshots/layout-*.png).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Locator, Page } from "playwright-core";
import { launchPeople, screenshot, type People } from "./browser.ts";
import { startAppForBrowser, startTargetServer, type BrowserApp, type TargetServer } from "./servers.ts";

let app: BrowserApp | undefined;
let target: TargetServer | undefined;
let people: People | undefined;

const password = "correct horse battery";
const stamp = Date.now().toString(36);
const ownerEmail = `a-rather-long-address-${stamp}@example.com`;
let token = "";
let workspaceId = "";
let invitation = "";
let code = "";

async function call<T>(method: string, path: string, body?: unknown, auth = token): Promise<T> {
  const res = await fetch(`${app!.url}${path}`, {
    method,
    headers: { ...(auth ? { authorization: `Bearer ${auth}` } : {}), "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}`).toBe(200);
  return (await res.json()) as T;
}

async function account(email: string): Promise<string> {
  await call("POST", "/users", { email, name: "Someone", age: 30, password }, "");
  return (await call<{ token: string }>("POST", "/auth/login", { email, password }, "")).token;
}

beforeAll(async () => {
  [app, target, people] = await Promise.all([startAppForBrowser(), startTargetServer(), launchPeople()]);
  token = await account(ownerEmail);
  const memberToken = await account(`member-${stamp}@example.com`);
  ({ id: workspaceId } = await call<{ id: string }>("POST", "/workspaces", { name: "Marketing team of the northern region" }));
  const joining = await call<{ token: string }>("POST", `/workspaces/${workspaceId}/invitations`, { role: "member" });
  await call("POST", "/invitations/accept", { token: joining.token }, memberToken);
  ({ token: invitation } = await call<{ token: string }>("POST", `/workspaces/${workspaceId}/invitations`, { role: "viewer" }));
  // A long unbroken URL and title: what overflows a narrow page first.
  const longUrl = `${target.url}&campaign=${"spring-sale-".repeat(20)}`;
  ({ code } = await call<{ code: string }>("POST", "/shorten", { url: longUrl, title: "A title long enough to wrap on a phone's narrow screen" }));
  await call("POST", "/shorten", { url: target.url, maxClicks: 100, expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
  await call("POST", "/shorten", { url: target.url, workspaceId });
  await call("POST", "/me/api-keys", { name: "Deploy script of the build server", expiresAt: new Date(Date.now() + 86_400_000).toISOString() });
  await call("POST", "/me/api-keys", { name: "Reader", scopes: ["links:read"] });
  const clicked = await fetch(`${app.url}/${code}`, { headers: { accept: "text/html", referer: "https://news.ycombinator.com/" }, redirect: "manual" });
  expect(clicked.status).toBe(302);
}, 120_000);

afterAll(async () => {
  await people?.close();
  await target?.close();
  await app?.stop();
}, 60_000);

interface PageCase {
  name: string;
  hash: () => string;
  /** The controls that must be on screen once the page has loaded. */
  controls: (page: Page) => Locator[];
}

const main = (page: Page) => page.getByRole("main");

const signedIn: PageCase[] = [
  { name: "shorten", hash: () => "#/", controls: (p) => [p.getByLabel("Workspace"), p.getByLabel("Long URL"), p.getByRole("button", { name: "Shorten" })] },
  {
    name: "links",
    hash: () => "#/links",
    controls: (p) => [p.getByLabel("Workspace"), p.getByLabel("Search"), p.getByRole("button", { name: `Edit ${code}` }), p.getByRole("button", { name: `Delete ${code}` })],
  },
  { name: "keys", hash: () => "#/keys", controls: (p) => [p.getByRole("button", { name: "Create key" }), p.getByRole("button", { name: "Revoke Reader" })] },
  {
    name: "stats",
    hash: () => `#/stats/${code}`,
    controls: (p) => [p.getByRole("img", { name: /^1 click/ }), p.getByRole("group", { name: "Range" }), p.getByRole("region", { name: "Referrers" })],
  },
  { name: "workspaces", hash: () => "#/workspaces", controls: (p) => [main(p).getByRole("link", { name: "Marketing team of the northern region" }), p.getByRole("button", { name: "Create workspace" })] },
  {
    name: "workspace",
    hash: () => `#/workspaces/${workspaceId}`,
    controls: (p) => [
      p.getByRole("button", { name: "Rename" }),
      main(p).getByRole("combobox", { name: /^Role of / }),
      main(p).getByRole("button", { name: /^Remove / }),
      p.getByRole("button", { name: "Create invitation link" }),
      main(p).getByRole("button", { name: /^Revoke the viewer invitation/ }),
      p.getByRole("button", { name: /^Delete Marketing/ }),
    ],
  },
  {
    name: "transfers",
    hash: () => "#/transfers",
    controls: (p) => [p.getByLabel("File", { exact: true }), p.getByLabel("Format"), p.getByRole("button", { name: "Import" }), p.getByRole("button", { name: "Export JSON" })],
  },
  { name: "webhooks", hash: () => `#/workspaces/${workspaceId}/webhooks`, controls: (p) => [p.getByLabel("URL"), p.getByRole("button", { name: "Add webhook" })] },
  { name: "invite", hash: () => `#/invite/${invitation}`, controls: (p) => [p.getByRole("button", { name: "Accept" })] },
  { name: "missing", hash: () => "#/nowhere/at/all", controls: (p) => [main(p).getByRole("link", { name: "Shorten a link" })] },
];

const signedOut: PageCase[] = [
  { name: "shorten-signed-out", hash: () => "#/", controls: (p) => [p.getByLabel("Long URL"), p.getByRole("button", { name: "Shorten" })] },
  { name: "login", hash: () => "#/login", controls: (p) => [p.getByLabel("Email"), p.getByRole("button", { name: "Log in" })] },
  { name: "signup", hash: () => "#/signup", controls: (p) => [p.getByLabel("Password"), p.getByRole("button", { name: "Sign up" })] },
  { name: "invite-signed-out", hash: () => `#/invite/${invitation}`, controls: (p) => [main(p).getByRole("link", { name: "Log in" })] },
];

/** On screen: visible, and inside the viewport's width (scrolled to, as a reader would). */
async function expectOnScreen(page: Page, control: Locator, width: number): Promise<void> {
  await control.scrollIntoViewIfNeeded();
  const box = await control.boundingBox();
  expect(box, String(control)).not.toBeNull();
  expect(box!.x, String(control)).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, String(control)).toBeLessThanOrEqual(width);
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scroll, inner } = await page.evaluate<{ scroll: number; inner: number }>(
    "({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth })",
  );
  expect(scroll, "the page scrolls sideways").toBeLessThanOrEqual(inner);
}

async function visitAll(page: Page, cases: PageCase[], width: number): Promise<void> {
  for (const c of cases) {
    await page.goto(`${app!.url}/${c.hash()}`);
    const controls = c.controls(page);
    // Loaded when its controls are: each waited for, then measured.
    for (const control of controls) await control.first().waitFor();
    await expectNoSidewaysScroll(page);
    for (const control of controls) await expectOnScreen(page, control.first(), width);
    await screenshot(page, `layout-${width}-${c.name}`);
  }
}

describe.each([
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
])("every page at $width px", (viewport) => {
  test("signed in, with links, keys and a team workspace", async () => {
    const page = await people!.person(viewport);
    await page.goto(`${app!.url}/#/login`);
    await page.getByLabel("Email").fill(ownerEmail);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/links");
    await visitAll(page, signedIn, viewport.width);
    await page.context().close();
  }, 60_000);

  test("signed out", async () => {
    const page = await people!.person(viewport);
    await visitAll(page, signedOut, viewport.width);
    await page.context().close();
  }, 60_000);

  test("the nav reaches every page: folded behind Menu on a phone, in a row on a desktop", async () => {
    const page = await people!.person(viewport);
    await page.goto(`${app!.url}/#/login`);
    await page.getByLabel("Email").fill(ownerEmail);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/links");
    const nav = page.getByRole("navigation");
    const menu = nav.getByRole("button", { name: "Menu" });
    const entries = ["Shorten", "My links", "Workspaces", "Import/Export", "API keys"].map((name) => nav.getByRole("link", { name, exact: true }));
    if (viewport.width < 640) {
      expect(await entries[2]!.isVisible()).toBe(false);
      await menu.click();
      expect(await menu.getAttribute("aria-expanded")).toBe("true");
    } else {
      expect(await menu.isVisible()).toBe(false);
    }
    for (const entry of entries) await expectOnScreen(page, entry, viewport.width);
    await expectOnScreen(page, nav.getByRole("button", { name: "Log out" }), viewport.width);
    await expectNoSidewaysScroll(page);
    await screenshot(page, `layout-${viewport.width}-nav`);
    await entries[2]!.click();
    await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/workspaces");
    // Following an entry folds the menu again.
    if (viewport.width < 640) await expect.poll(() => entries[2]!.isVisible()).toBe(false);
    await page.context().close();
  }, 60_000);
});
