// Links people manage, in a real browser against the real app: a custom alias,
// following it, changing its target, deleting it; an expired link; a password link; the
// list's search, filter, sort and paging; API keys. The tests run in order and share one
// browser and one signed-in user.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Locator } from "playwright-core";
import { screenshot, type Browser } from "./browser.ts";
import { startBrowserTestBed, type BrowserApp, type BrowserTestBed, type TargetServer } from "./servers.ts";

let bed: BrowserTestBed | undefined;
let app: BrowserApp;
let target: TargetServer;
let browser: Browser;
let cspViolations: string[] = [];
/** The signed-in user's token, for what the tests set up through the API rather than the pages. */
let token = "";

beforeAll(async () => {
  bed = await startBrowserTestBed();
  ({ app, target, browser, cspViolations } = bed);
  // The Copy buttons' result is read back from the clipboard.
  await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.url });
}, 120_000);

afterAll(() => bed?.close(), 60_000);

/** An API call as the signed-in user. */
async function api(method: string, path: string, body?: unknown, auth = `Bearer ${token}`): Promise<Response> {
  return fetch(`${app.url}${path}`, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Opens My links and answers the list item of the link with `code`. */
async function myLink(code: string): Promise<Locator> {
  const { page } = browser;
  await page.goto(`${app.url}/#/links`);
  const item = links().filter({ has: page.getByRole("link", { name: `${app.url}/${code}`, exact: true }) });
  await expect.poll(() => item.count()).toBe(1);
  return item;
}

/** The links listed on My links (the nav's list items are not among them). */
const links = () => browser.page.getByRole("main").getByRole("listitem");

/** The page's own status line (each Copy button has one of its own). */
const notice = () => browser.page.locator("main p[role=status]");

/** Where a browser visiting the short link ends up: the final URL, its status and its text. */
async function visit(code: string): Promise<{ url: string; status: number; text: string }> {
  const response = await browser.page.goto(`${app.url}/${code}`);
  return { url: response!.url(), status: response!.status(), text: await browser.page.locator("body").innerText() };
}

describe("links people manage, in the browser", () => {
  const alias = `Promo-${Date.now().toString(36)}`;

  test("logs in; the nav shows My links and API keys", async () => {
    const { page } = browser;
    // Signing up through its page is frontend.browser.test.ts's: here the account is made through the API.
    const email = `grace-${Date.now()}@example.com`;
    const password = "correct horse battery";
    const signedUp = await fetch(`${app.url}/users`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, name: "Grace", age: 45, password }),
    });
    expect(signedUp.status).toBe(200);
    await page.goto(`${app.url}/#/login`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/links");
    token = await page.evaluate<string>(`JSON.parse(localStorage.getItem("url-shortener.session")).token`);
    const nav = page.getByRole("navigation");
    expect(await nav.getByRole("link", { name: "My links" }).isVisible()).toBe(true);
    expect(await nav.getByRole("link", { name: "API keys" }).isVisible()).toBe(true);
  });

  test("shortens under a custom alias from the options; the same alias again is refused next to its field", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/#/`);
    await page.getByLabel("Long URL").fill(target.url);
    await page.getByText("Options", { exact: true }).click();
    await page.getByLabel("Alias").fill(alias);
    await page.getByLabel("Title").fill("Spring promotion");
    await screenshot(page, "shorten-options");
    await page.getByRole("button", { name: "Shorten" }).click();
    const link = page.getByRole("region", { name: "Your short link" }).getByRole("link").first();
    await expect.poll(() => link.textContent()).toBe(`${app.url}/${alias}`);
    // The form is cleared for the next link: the alias is not taken twice by accident.
    expect(await page.getByLabel("Alias").inputValue()).toBe("");

    // Taken in any case: 409, its message next to the alias field, the options open to show it.
    await page.getByLabel("Alias").fill(alias.toLowerCase());
    await page.getByRole("button", { name: "Shorten" }).click();
    const field = page.getByLabel("Alias");
    await expect.poll(() => field.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await field.getAttribute("aria-describedby"))!.split(" ");
    expect(await page.locator(`#${describedBy.at(-1)}`).textContent()).toMatch(/\S/);
    expect(await page.getByRole("region", { name: "Your short link" }).count()).toBe(0);
    await screenshot(page, "shorten-alias-taken");
  });

  test("a browser visiting the alias is redirected to the target", async () => {
    expect((await visit(alias)).url).toBe(target.url);
  });

  test("edits the target in My links; the next visit goes to the new one", async () => {
    const { page } = browser;
    const newTarget = `${target.url}&edited=1`;
    const item = await myLink(alias);
    expect(await item.textContent()).toContain("Spring promotion");
    expect(await item.textContent()).toContain("1 click");
    await item.getByRole("button", { name: `Edit ${alias}` }).click();
    const url = item.getByLabel("Target URL");
    expect(await url.inputValue()).toBe(target.url);
    await url.fill(newTarget);
    await screenshot(page, "links-edit");
    await item.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => item.locator(".original").textContent()).toBe(newTarget);
    expect(await item.getByLabel("Target URL").count()).toBe(0); // the form closed
    expect(await notice().textContent()).toBe(`Saved ${app.url}/${alias}.`);

    expect((await visit(alias)).url).toBe(newTarget);
  });

  test("copies the short link to the clipboard", async () => {
    const { page } = browser;
    const item = await myLink(alias);
    await item.getByRole("button", { name: `Copy ${app.url}/${alias}` }).click();
    await expect.poll(() => item.locator(".copy-status").textContent()).toBe("Copied");
    expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe(`${app.url}/${alias}`);
  });

  test("deletes after a confirmation; visiting then shows the link-deleted page", async () => {
    const { page } = browser;
    const item = await myLink(alias);
    await item.getByRole("button", { name: `Delete ${alias}` }).click();
    const confirm = item.getByRole("group", { name: `Delete ${alias}` });
    expect(await confirm.textContent()).toContain("It stops working at once");
    await screenshot(page, "links-delete-confirm");
    // Cancel keeps it; asked again and confirmed, it goes.
    await confirm.getByRole("button", { name: "Cancel" }).click();
    expect(await item.count()).toBe(1);
    await item.getByRole("button", { name: `Delete ${alias}` }).click();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => item.count()).toBe(0);
    expect(await notice().textContent()).toBe(`Deleted ${app.url}/${alias}.`);

    const visited = await visit(alias);
    expect(visited.status).toBe(404);
    expect(visited.text).toMatch(/This link was deleted/);
    await screenshot(page, "manage-deleted");
  });

  test("an expired link shows the link-expired page and is listed as inactive", async () => {
    const { page } = browser;
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const res = await api("POST", "/shorten", { url: target.url, title: "Short-lived", expiresAt });
    expect(res.status).toBe(200);
    const { code } = (await res.json()) as { code: string };
    await new Promise((resolve) => setTimeout(resolve, Date.parse(expiresAt) - Date.now() + 100));

    const visited = await visit(code);
    expect(visited.status).toBe(404);
    expect(visited.text).toMatch(/This link has expired/);
    await screenshot(page, "manage-expired");

    const item = await myLink(code);
    expect(await item.locator(".status").textContent()).toBe("Expired");
    await page.getByLabel("Show").selectOption("inactive");
    await expect.poll(() => links().filter({ hasText: "Short-lived" }).count()).toBe(1);
    await page.getByLabel("Show").selectOption("active");
    await expect.poll(() => links().filter({ hasText: "Short-lived" }).count()).toBe(0);
  });

  test("a password link: the browser gets a form, a wrong password is refused, the right one leads on", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/#/`);
    await page.getByLabel("Long URL").fill(target.url);
    await page.getByText("Options", { exact: true }).click();
    await page.getByLabel("Password").fill("open sesame");
    await page.getByRole("button", { name: "Shorten" }).click();
    const link = page.getByRole("region", { name: "Your short link" }).getByRole("link").first();
    await expect.poll(() => link.textContent()).toMatch(new RegExp(`^${app.url}/`));
    const code = (await link.textContent())!.slice(app.url.length + 1);

    expect((await visit(code)).status).toBe(401);
    const password = page.locator('input[name="password"]');
    await password.fill("open barley");
    await screenshot(page, "manage-password-form");
    const [wrong] = await Promise.all([page.waitForResponse((r) => r.request().method() === "POST"), password.press("Enter")]);
    expect(wrong.status()).toBe(401);
    await expect.poll(() => page.locator("body").innerText()).toMatch(/wrong password/i);
    await screenshot(page, "manage-password-wrong");

    await password.fill("open sesame");
    await Promise.all([page.waitForURL(target.url), password.press("Enter")]);
    expect(await page.title()).toBe("Target page");

    // Removed in My links, the password no longer stands in the way.
    const item = await myLink(code);
    expect(await item.locator(".meta").first().textContent()).toContain("password");
    await item.getByRole("button", { name: `Edit ${code}` }).click();
    await item.getByLabel("Remove the password").check();
    await item.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => item.locator(".meta").first().textContent()).not.toContain("password");
    expect((await visit(code)).url).toBe(target.url);
  });

  test("My links searches, sorts by clicks and pages with More", async () => {
    const { page } = browser;
    for (let i = 1; i <= 22; i++) {
      const res = await api("POST", "/shorten", { url: `${target.url}&batch=${i}`, title: `Batch item ${i}` });
      expect(res.status).toBe(200);
    }
    const batch = links().filter({ hasText: "Batch item" });
    await page.goto(`${app.url}/#/links`);
    await expect.poll(() => batch.count()).toBe(20); // a page is 20 links, the newest first
    expect(await batch.first().textContent()).toContain("Batch item 22");
    await page.getByRole("button", { name: "More" }).click();
    await expect.poll(() => batch.count()).toBe(22);
    await screenshot(page, "links-more");

    await page.getByLabel("Search").fill("batch item 7");
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => links().count()).toBe(1);
    const seven = links().first();
    expect(await seven.textContent()).toContain("Batch item 7");
    const sevenCode = (await seven.getByRole("link").first().textContent())!.slice(app.url.length + 1);
    await screenshot(page, "links-search");

    // Three clicks on item 7 put it first when sorted by clicks (the password link has two).
    for (let i = 0; i < 3; i++) expect((await visit(sevenCode)).url).toBe(`${target.url}&batch=7`);
    await page.goto(`${app.url}/#/links`);
    await page.getByLabel("Sort").selectOption("clicks");
    await expect.poll(() => links().first().textContent()).toContain("Batch item 7");
    expect(await links().first().textContent()).toContain("3 clicks");
    await screenshot(page, "links-by-clicks");
  });

  test("the API keys page creates a key with the scopes chosen, shown once, lists it, and revokes it", async () => {
    const { page } = browser;
    await page.getByRole("navigation").getByRole("link", { name: "API keys" }).click();
    await expect.poll(() => page.title()).toBe("API keys · Short links");
    await page.getByLabel("Name").fill("Deploy script");
    // Every scope is chosen to begin with; none at all is refused next to the choice.
    const scopes = page.getByRole("group", { name: "What it may do" });
    for (const scope of ["Read links", "Create, change and delete links", "Read click analytics"]) {
      expect(await scopes.getByLabel(scope).isChecked()).toBe(true);
      await scopes.getByLabel(scope).uncheck();
    }
    // The key acts in one workspace: by default the one the other pages work in, the personal one here.
    const workspace = page.getByLabel("Workspace");
    const personal = (await workspace.locator("option:checked").textContent()) ?? "";
    expect(personal).toMatch(/personal/i);
    await page.getByRole("button", { name: "Create key" }).click();
    await expect.poll(() => scopes.textContent()).toContain("scopes must hold at least one of");
    await scopes.getByLabel("Read links").check();
    await scopes.getByLabel("Read click analytics").check();
    await page.getByRole("button", { name: "Create key" }).click();
    const created = page.getByRole("region", { name: "Your new key “Deploy script”" });
    const key = (await created.locator("code").textContent()) ?? "";
    expect(key).toMatch(/^usk_[A-Za-z0-9_-]{43}$/);
    expect(await created.textContent()).toContain("It may: read links; read click analytics.");
    expect(await created.textContent()).toContain("it will not be shown again");
    await created.getByRole("button", { name: "Copy the key" }).click();
    expect(await page.evaluate<string>("navigator.clipboard.readText()")).toBe(key);
    const row = page.getByRole("row").filter({ hasText: "Deploy script" });
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain("Never"); // not used yet
    expect(await row.textContent()).toContain("Read links, Read click analytics");
    expect(await row.textContent()).toContain(personal);
    await screenshot(page, "keys-created");

    // The key works in place of a token for what it may do, and only that; after a reload it is nowhere on the page.
    expect((await api("GET", "/links", undefined, `Bearer ${key}`)).status).toBe(200);
    expect((await api("POST", "/shorten", { url: "https://by-a-reader.example/" }, `Bearer ${key}`)).status).toBe(403);
    await page.reload();
    await expect.poll(() => row.count()).toBe(1);
    expect(await page.getByText(key).count()).toBe(0);
    await screenshot(page, "keys");

    await row.getByRole("button", { name: "Revoke Deploy script" }).click();
    await screenshot(page, "keys-revoke-confirm");
    await row.getByRole("group", { name: "Revoke Deploy script" }).getByRole("button", { name: "Revoke" }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect(await notice().textContent()).toBe("Revoked Deploy script.");
    expect((await api("GET", "/links", undefined, `Bearer ${key}`)).status).toBe(401);
    await page.reload();
    await expect.poll(() => page.getByText("No keys yet.").isVisible()).toBe(true);
  });

  test("no page broke its Content-Security-Policy", () => {
    expect(cspViolations).toEqual([]);
  });
});
