// A link's targeting rules in its analytics, in a real browser against the real app: clicks
// that a rule sends and that none does, then the stats page's "Targeting rules" panel, its
// rows labelled from the link's rules, a removed rule's clicks, and what a reader who may not
// read the rules sees. The tests run in order and share one browser and one link.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Locator } from "playwright-core";
import type { Browser } from "./browser.ts";
import { startBrowserTestBed, type BrowserApp, type BrowserTestBed, type TargetServer } from "./servers.ts";
import { atBothWidths } from "./widths.ts";
import type { RedirectRule as Rule } from "../../link-rules/redirect-rules.ts";

let bed: BrowserTestBed | undefined;
let app: BrowserApp;
let target: TargetServer;
let browser: Browser;
let cspViolations: string[] = [];

beforeAll(async () => {
  // Each click written before it is answered, so the analytics hold it once the click is answered.
  bed = await startBrowserTestBed({ CLICK_FLUSH_INTERVAL_MS: "0" });
  ({ app, target, browser, cspViolations } = bed);
}, 120_000);

afterAll(() => bed?.close(), 60_000);

const html = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const chrome = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const json = { "content-type": "application/json" };

interface Account {
  email: string;
  token: string;
  expiresAt: string;
}

async function account(name: string): Promise<Account> {
  const email = `${name}-${Date.now()}@example.com`;
  const password = "correct horse battery";
  const made = await fetch(`${app.url}/users`, { method: "POST", headers: json, body: JSON.stringify({ email, name, age: 40, password }) });
  expect(made.status).toBe(200);
  const login = await fetch(`${app.url}/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ email, password }) });
  expect(login.status).toBe(200);
  const { token, expiresAt } = (await login.json()) as { token: string; expiresAt: string };
  return { email, token, expiresAt };
}

/** The page's session as the login page keeps it (logging in through that page is frontend.browser.test.ts's). */
async function signInAs(who: Account | null): Promise<void> {
  const { page } = browser;
  await page.goto(app.url);
  const session = who && JSON.stringify({ token: who.token, email: who.email, expiresAt: who.expiresAt });
  await page.evaluate(
    session ? `localStorage.setItem("url-shortener.session", ${JSON.stringify(session)})` : `localStorage.removeItem("url-shortener.session")`,
  );
  await page.reload();
}

/** A new link, the owner's when `token` is given; answers its code and rules (with their ids). */
async function shorten(body: Record<string, unknown>, token?: string): Promise<{ code: string; rules: Rule[] }> {
  const headers = token ? { ...json, authorization: `Bearer ${token}` } : json;
  const res = await fetch(`${app.url}/shorten`, { method: "POST", headers, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  const { code } = (await res.json()) as { code: string };
  if (!token) return { code, rules: [] };
  const link = await fetch(`${app.url}/links/${code}`, { headers: { authorization: `Bearer ${token}` } });
  expect(link.status).toBe(200);
  return { code, rules: ((await link.json()) as { rules: Rule[] }).rules };
}

/** One click, as a client sending these headers; answers where it was sent: a browser asking for HTML by redirect, others in JSON. */
async function click(path: string, headers: Record<string, string>): Promise<string> {
  const res = await fetch(`${app.url}/${path}`, { headers, redirect: "manual" });
  if (headers.accept === html) {
    expect(res.status).toBe(302);
    return res.headers.get("location")!;
  }
  expect(res.status).toBe(200);
  return ((await res.json()) as { url: string }).url;
}

const panel = () => browser.page.getByRole("region", { name: "Targeting rules" });

/** The panel's rows, in order: each row header's text and its humans and bots. */
async function panelRows(): Promise<string[][]> {
  const rows = panel().locator("tbody tr");
  const read = async (r: Locator) => [(await r.getByRole("rowheader").textContent())!, ...(await r.locator("td.num").allTextContents())];
  return Promise.all((await rows.all()).map(read));
}

/** The stats page of `code`, once its analytics are shown: a new document, so no earlier answer shows. */
async function openStats(code: string): Promise<void> {
  const { page } = browser;
  // From the same page, a goto changes only the hash, and the page would keep the link it read.
  await page.goto("about:blank");
  await page.goto(`${app.url}/#/stats/${code}`);
  await page.locator(".totals").waitFor();
}

describe("a link's targeting rules in its analytics", () => {
  let owner: Account;
  let code = "";
  let rules: Rule[] = [];
  const ios = "https://apps.example/ios";
  const german = "https://example.de/willkommen";
  const qr = "https://qr.example/welcome";

  test("clicks that a rule sends and that none does are counted per rule", async () => {
    owner = await account("rules-owner");
    ({ code, rules } = await shorten(
      {
        url: target.url,
        rules: [
          { device: "ios", url: ios },
          { countries: ["DE", "AT"], url: german },
          { query: { name: "src", value: "qr" }, url: qr },
        ],
      },
      owner.token,
    ));
    expect(rules).toHaveLength(3);

    expect(await click(code, { "user-agent": iphone, accept: html })).toBe(ios);
    expect(await click(code, { "user-agent": iphone, accept: html })).toBe(ios);
    // The short link's query goes on to the rule's URL, as to the link's own (forwardQuery's default).
    expect(await click(`${code}?src=qr`, { "user-agent": "curl/8.5.0", accept: "*/*" })).toBe(`${qr}?src=qr`);
    expect(await click(code, { "user-agent": chrome, accept: html })).toBe(target.url);
    expect(await click(code, { "user-agent": "curl/8.5.0", accept: "*/*" })).toBe(target.url);

    const res = await fetch(`${app.url}/${code}/analytics`, { headers: { authorization: `Bearer ${owner.token}` } });
    const answer = (await res.json()) as { totals: { all: number }; rules: { top: { value: string }[] } };
    expect(answer.totals.all).toBe(5);
    expect(answer.rules.top.map((v) => v.value).sort()).toEqual([rules[0]!.id, rules[2]!.id].sort());
  });

  test("the owner's stats page lists each rule by what it matches, in the link's order, then the link's own URL", async () => {
    const { page } = browser;
    await signInAs(owner);
    await openStats(code);
    expect(await panelRows()).toEqual([
      [`iOS → ${ios}`, "2", "0"],
      [`Countries DE, AT → ${german}`, "0", "0"],
      [`Query src=qr → ${qr}`, "0", "1"],
      ["Link's own URL", "1", "1"],
    ]);
    expect(await panel().getByRole("columnheader").allTextContents()).toEqual(["Rule", "Humans", "Bots"]);
    // The panel is one of the breakdowns, after the others.
    expect(await page.locator(".breakdowns > .breakdown h3").allTextContents()).toEqual([
      "Referrers",
      "Countries",
      "Browsers",
      "Operating systems",
      "Devices",
      "Targeting rules",
    ]);
    await page.screenshot({ path: "/tmp/h2-rules-light.png", fullPage: true });
    await page.emulateMedia({ colorScheme: "dark" });
    await page.screenshot({ path: "/tmp/h2-rules-dark.png", fullPage: true });
    await page.emulateMedia({ colorScheme: "light" });
    // The rules' URLs are the longest values of any breakdown: a phone must not scroll sideways for them.
    await atBothWidths(page, "stats-rules");
  });

  test("a rule removed since keeps its clicks, shown by its id", async () => {
    const [iosRule, germanRule, qrRule] = rules;
    const res = await fetch(`${app.url}/links/${code}`, {
      method: "PATCH",
      headers: { ...json, authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ rules: [iosRule, germanRule] }),
    });
    expect(res.status).toBe(200);
    await openStats(code);
    expect(await panelRows()).toEqual([
      [`iOS → ${ios}`, "2", "0"],
      [`Countries DE, AT → ${german}`, "0", "0"],
      [`Removed rule (${qrRule!.id})`, "0", "1"],
      ["Link's own URL", "1", "1"],
    ]);
  });

  test("an anonymous link's rules are no one's to read: its public analytics show the rules by id", async () => {
    const { code: anonymous } = await shorten({ url: target.url, rules: [{ languages: ["fr"], url: "https://example.fr/" }] });
    expect(await click(anonymous, { "user-agent": chrome, accept: html, "accept-language": "fr-FR,fr;q=0.9,en;q=0.5" })).toBe("https://example.fr/");
    const res = await fetch(`${app.url}/${anonymous}/analytics`);
    const [rule] = ((await res.json()) as { rules: { top: { value: string }[] } }).rules.top;

    await signInAs(null);
    await openStats(anonymous);
    expect(await panelRows()).toEqual([
      [`Rule ${rule!.value}`, "1", "0"],
      ["Link's own URL", "0", "0"],
    ]);
  });

  test("a link without rules has no rules panel", async () => {
    const { code: plain } = await shorten({ url: target.url }, owner.token);
    expect(await click(plain, { "user-agent": chrome, accept: html })).toBe(target.url);
    await signInAs(owner);
    await openStats(plain);
    expect(await browser.page.locator(".totals dd").first().textContent()).toBe("1");
    expect(await panel().count()).toBe(0);
  });

  test("no page broke its Content-Security-Policy", () => {
    expect(cspViolations).toEqual([]);
  });
});
