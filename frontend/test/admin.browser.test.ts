// The admin page in a real browser against the real app: shown to an administrator
// (ADMIN_EMAILS) only; its users, links, reports, hosts and audit log sections each do
// their work, at a phone's width as at a desktop's. The tests run in order and share one
// browser.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Browser } from "./browser.ts";
import { startBrowserTestBed, type BrowserApp, type BrowserTestBed } from "./servers.ts";
import { atBothWidths } from "./widths.ts";

const adminEmail = "admin@example.com";
const spammer = "spammer@example.com";
const password = "correct horse battery";

let bed: BrowserTestBed | undefined;
let app: BrowserApp;
let browser: Browser;
let cspViolations: string[] = [];
let spammerToken = "";
const codes: Record<string, string> = {};

async function signUp(base: string, email: string, name: string): Promise<void> {
  const res = await fetch(`${base}/users`, { method: "POST", body: JSON.stringify({ email, name, age: 40, password }) });
  expect(res.status).toBe(200);
}

async function call(method: string, path: string, body?: unknown, token?: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}`).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  // As an operator does: the account first, then its email in ADMIN_EMAILS.
  bed = await startBrowserTestBed({ ADMIN_EMAILS: adminEmail }, (url) => signUp(url, adminEmail, "Ada Admin"));
  ({ app, browser, cspViolations } = bed);
  await signUp(app.url, spammer, "Sam Spammer");
  spammerToken = (await call("POST", "/auth/login", { email: spammer, password })).token as string;
  codes.owned = (await call("POST", "/shorten", { url: "https://win.prize.example/claim", title: "You won" }, spammerToken)).code as string;
  codes.anonymous = (await call("POST", "/shorten", { url: "https://bank-login.example/verify" })).code as string;
  codes.other = (await call("POST", "/shorten", { url: "https://docs.example/page" })).code as string;
  await call("POST", "/reports", { code: codes.anonymous, reason: "phishing", details: "Pretends to be my bank and asks for the PIN." });
}, 180_000);

afterAll(() => bed?.close(), 60_000);

async function logIn(email: string): Promise<void> {
  const { page } = browser;
  await page.goto(`${app.url}/#/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/links");
}

const nav = () => browser.page.getByRole("navigation", { name: "Main" });
const notice = () => browser.page.locator("main p[role=status]");
const cards = (label: string) => browser.page.getByRole("list", { name: label }).locator(":scope > li");

describe("the admin page", () => {
  test("is not in a user's nav, and tells a user who opens it that it is for administrators", async () => {
    const { page } = browser;
    await logIn(spammer);
    await expect.poll(() => nav().getByRole("link", { name: "My links" }).isVisible()).toBe(true);
    expect(await nav().getByRole("link", { name: "Admin" }).count()).toBe(0);
    await page.goto(`${app.url}/#/admin`);
    await expect.poll(() => page.getByRole("main").innerText()).toContain("Only the site's administrators may see this page.");
    await nav().getByRole("button", { name: "Log out" }).click();
    // Logging out asks the server first, then goes home: a next test's page must not be overtaken by it.
    await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/");
  });

  test("an administrator finds it in the nav; Users searches accounts and disables one", async () => {
    const { page } = browser;
    await logIn(adminEmail);
    await nav().getByRole("link", { name: "Admin" }).click();
    await expect.poll(() => cards("Users").count()).toBe(2);
    await page.getByLabel("Email or name").fill("SPAM");
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => cards("Users").count()).toBe(1);
    expect(await cards("Users").first().innerText()).toMatch(/spammer@example\.com[\s\S]*Sam Spammer[\s\S]*1 link\b/);
    await atBothWidths(page, "admin-users");
    await page.getByRole("button", { name: `Disable ${spammer}` }).click();
    await expect.poll(() => notice().innerText()).toBe(`Disabled ${spammer}.`);
    await expect.poll(() => cards("Users").first().innerText()).toContain("disabled");
    const refused = await fetch(`${app.url}/me`, { headers: { authorization: `Bearer ${spammerToken}` } });
    expect(refused.status).toBe(401);
    await page.getByRole("button", { name: `Enable ${spammer}` }).click();
    await expect.poll(() => notice().innerText()).toBe(`Enabled ${spammer}.`);
  });

  test("Links lists every link, filtered by host and creator, and disables one", async () => {
    const { page } = browser;
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Links" }).click();
    await expect.poll(() => cards("Links").count()).toBe(3);
    await page.getByLabel("Target host").fill("prize.example");
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => cards("Links").count()).toBe(1);
    expect(await cards("Links").first().innerText()).toMatch(new RegExp(`${codes.owned}[\\s\\S]*You won[\\s\\S]*${spammer}`));
    await page.getByLabel("Target host").fill("");
    await page.getByLabel("Creator (email or id)").fill(spammer);
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(() => cards("Links").count()).toBe(1);
    await atBothWidths(page, "admin-links");
    await page.getByRole("button", { name: `Disable ${codes.owned}` }).click();
    await expect.poll(() => notice().innerText()).toBe(`Disabled ${codes.owned}.`);
    await expect.poll(() => cards("Links").first().innerText()).toMatch(/disabled[\s\S]*\(abuse\)/);
    expect((await fetch(`${app.url}/${codes.owned}`)).status).toBe(404);
  });

  test("Reports shows the queue; disabling the reported link empties it", async () => {
    const { page } = browser;
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Reports" }).click();
    await expect.poll(() => cards("Reported links").count()).toBe(1);
    expect(await cards("Reported links").first().innerText()).toMatch(/bank-login\.example[\s\S]*phishing × 1[\s\S]*asks for the PIN/);
    await atBothWidths(page, "admin-reports");
    await page.getByRole("button", { name: `Disable ${codes.anonymous}` }).click();
    await expect.poll(() => notice().innerText()).toBe(`Disabled the link and closed 1 report of ${codes.anonymous}.`);
    await expect.poll(() => page.getByText("No open reports.").isVisible()).toBe(true);
    await page.getByLabel("Queue").selectOption("resolved");
    await expect.poll(() => cards("Reported links").count()).toBe(1);
    expect(await cards("Reported links").first().innerText()).toContain("disabled");
  });

  test("Hosts bans a host, which disables its links, and lifts the ban", async () => {
    const { page } = browser;
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Hosts" }).click();
    await page.getByLabel("Host (with its subdomains)").fill("Docs.Example");
    await page.getByLabel("Reason").fill("malware downloads");
    await page.getByRole("button", { name: "Ban host" }).click();
    await expect.poll(() => notice().innerText()).toBe("Banned docs.example: 1 link disabled.");
    await expect.poll(() => cards("Banned hosts").count()).toBe(1);
    await atBothWidths(page, "admin-hosts");
    await page.getByRole("button", { name: "Unban docs.example" }).click();
    await expect.poll(() => notice().innerText()).toBe("Unbanned docs.example: 1 link redirects again.");
    await expect.poll(() => cards("Banned hosts").count()).toBe(0);
  });

  test("the audit log shows every action, newest first", async () => {
    const { page } = browser;
    await page.getByRole("navigation", { name: "Admin sections" }).getByRole("link", { name: "Audit log" }).click();
    await expect.poll(() => cards("Actions").count()).toBe(7);
    const actions = (await cards("Actions").locator(".link-title").allInnerTexts()).map((t) => t.trim());
    expect(actions).toEqual(["unban host", "ban host", "uphold reports", "disable link", "disable link", "enable account", "disable account"]);
    await atBothWidths(page, "admin-audit");
    expect(cspViolations).toEqual([]);
  });
});
