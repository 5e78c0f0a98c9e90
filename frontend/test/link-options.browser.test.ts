// The link forms' own options in a real browser against the real app: campaign (UTM) tags
// written into and read back from the target URL, a link's QR image options with their live
// preview and download, and the redirect options and targeting rules in the shorten and edit
// forms. The redirect and targeting fields are built by other parts of the app: what the
// forms send (the request body, the forms' own behaviour) is checked always, and the saved
// link too once the API answers those fields.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Locator, Request } from "playwright-core";
import type { Browser } from "./browser.ts";
import { startBrowserTestBed, type BrowserApp, type BrowserTestBed } from "./servers.ts";
import { atBothWidths } from "./widths.ts";

let bed: BrowserTestBed | undefined;
let app: BrowserApp;
let browser: Browser;
let cspViolations: string[] = [];
let token = "";

beforeAll(async () => {
  bed = await startBrowserTestBed();
  ({ app, browser, cspViolations } = bed);
}, 120_000);

afterAll(() => bed?.close(), 60_000);

async function api(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}`).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/** The list item of `code` on My links. */
async function myLink(code: string): Promise<Locator> {
  const { page } = browser;
  await page.goto(`${app.url}/#/`); // from elsewhere, so My links reads the list afresh
  await page.goto(`${app.url}/#/links`);
  const item = page
    .getByRole("main")
    .getByRole("listitem")
    .filter({ has: page.getByRole("link", { name: `${app.url}/${code}`, exact: true }) });
  await expect.poll(() => item.count()).toBe(1);
  return item;
}


const sent = (request: Request) => request.postDataJSON() as Record<string, unknown>;

test("logs in", async () => {
  const { page } = browser;
  const email = `options-${Date.now()}@example.com`;
  const password = "correct horse battery";
  const signedUp = await fetch(`${app.url}/users`, { method: "POST", body: JSON.stringify({ email, name: "Olive", age: 45, password }) });
  expect(signedUp.status).toBe(200);
  await page.goto(`${app.url}/#/login`);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
  await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/links");
  token = await page.evaluate<string>(`JSON.parse(localStorage.getItem("url-shortener.session")).token`);
});

describe("campaign tags (UTM)", () => {
  test("typed into the builder, they land in the URL's query; a URL's own tags fill the builder", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/#/`);
    const url = page.getByLabel("Long URL");
    await url.fill("https://example.com/page?x=1");
    await page.getByText("Campaign tags (UTM)").click();
    await page.getByLabel("Source").fill("news letter");
    await page.getByLabel("Medium").fill("email");
    expect(await url.inputValue()).toBe("https://example.com/page?x=1&utm_source=news+letter&utm_medium=email");
    await page.getByLabel("Medium").fill("");
    expect(await url.inputValue()).toBe("https://example.com/page?x=1&utm_source=news+letter");

    await url.fill("https://example.com/?utm_campaign=spring&utm_content=hero");
    expect(await page.getByLabel("Campaign").inputValue()).toBe("spring");
    expect(await page.getByLabel("Content").inputValue()).toBe("hero");
    expect(await page.getByLabel("Source").inputValue()).toBe("");
    await page.getByLabel("Source").fill("twitter");
    await atBothWidths(page, "options-utm");

    const shortened = page.waitForResponse((r) => r.url().endsWith("/shorten") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Shorten" }).click();
    const { code } = (await (await shortened).json()) as { code: string };
    expect((await api("GET", `/links/${code}`)).originalUrl).toBe("https://example.com/?utm_campaign=spring&utm_content=hero&utm_source=twitter");

    // The edit form reads them back, and changes them in the URL it saves.
    const item = await myLink(code);
    await item.getByRole("button", { name: `Edit ${code}` }).click();
    const form = item.getByRole("form", { name: `Edit ${code}` });
    expect(await form.getByLabel("Source").inputValue()).toBe("twitter");
    await form.getByLabel("Source").fill("mastodon");
    await form.getByRole("button", { name: "Save" }).click();
    await expect.poll(async () => (await api("GET", `/links/${code}`)).originalUrl).toBe("https://example.com/?utm_campaign=spring&utm_content=hero&utm_source=mastodon");
    expect(cspViolations).toEqual([]);
  });
});

describe("QR options", () => {
  test("the preview follows the options; the download is the image previewed", async () => {
    const { page } = browser;
    const { code, shortUrl } = (await api("POST", "/shorten", { url: "https://example.com/qr-options" })) as { code: string; shortUrl: string };
    const item = await myLink(code);
    await item.getByText("QR code").click();
    const preview = item.getByRole("img", { name: `QR code for ${shortUrl}` });
    // The image's width as loaded (0 until then, or when the answer was no image).
    const loaded = () =>
      preview.evaluate((img) => {
        const shown = img as unknown as { complete: boolean; naturalWidth: number };
        return shown.complete ? shown.naturalWidth : 0;
      });
    await expect.poll(loaded).toBe(512);
    expect(await preview.getAttribute("src")).toBe(`/links/${code}/qr?format=png&size=512&color=%23000000&background=%23ffffff&margin=4`);

    await item.getByLabel("Format").selectOption("svg");
    await item.getByLabel("Size (pixels)").fill("300");
    await item.getByLabel("Colour").fill("#1f5fbf");
    await item.getByLabel("Margin (modules)").fill("2");
    const src = `/links/${code}/qr?format=svg&size=300&color=%231f5fbf&background=%23ffffff&margin=2`;
    await expect.poll(() => preview.getAttribute("src")).toBe(src);
    await expect.poll(loaded).toBe(300);
    const download = item.getByRole("link", { name: "Download SVG (300 × 300)" });
    expect(await download.getAttribute("href")).toBe(src);
    expect(await download.getAttribute("download")).toBe(`${code}-qr.svg`);
    const svg = await (await fetch(`${app.url}${src}`)).text();
    expect(svg).toContain('stroke="#1f5fbf"');

    // A size half typed keeps the last good preview rather than asking for a refused one.
    await item.getByLabel("Size (pixels)").fill("3");
    expect(await preview.getAttribute("src")).toContain("size=512");
    await item.getByLabel("Size (pixels)").fill("300");
    await item.evaluate((el) => el.scrollIntoView());
    await atBothWidths(page, "options-qr");
    await page.emulateMedia({ colorScheme: "dark" });
    await atBothWidths(page, "options-qr-dark");
    await page.emulateMedia({ colorScheme: "light" });
    expect(cspViolations).toEqual([]);
  });
});

describe("redirect options and targeting rules", () => {
  test("the shorten form's advanced part sends them in the contract's shape", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/#/`);
    await page.getByLabel("Long URL").fill("https://example.com/targeted");
    await page.getByText("Advanced: redirect and targeting").click();
    await page.getByLabel("Redirect type").selectOption("301");
    await page.getByLabel("Pass the short link's query on to the target").uncheck();
    await page.getByLabel("Let search engines index it").check();
    await page.getByLabel("Fallback URL").fill("https://example.com/over");

    await page.getByRole("button", { name: "Add a rule" }).click();
    await page.getByLabel("Rule 1: device").selectOption("android");
    await page.getByLabel("Rule 1: target URL").fill("https://play.example.com/app");
    await page.getByRole("button", { name: "Add a rule" }).click();
    await page.getByLabel("Rule 2: condition").selectOption("countries");
    await page.getByLabel("Rule 2: value").fill("de, at");
    await page.getByLabel("Rule 2: target URL").fill("https://example.de/");
    await page.getByRole("button", { name: "Add a rule" }).click();
    await page.getByLabel("Rule 3: condition").selectOption("query");
    await page.getByLabel("Rule 3: value").fill("ref=tw");
    await page.getByLabel("Rule 3: target URL").fill("https://example.com/from-twitter");
    // Reordered and one removed: the countries rule first, the device rule gone.
    await page.getByRole("button", { name: "Move rule 2 up" }).click();
    expect(await page.getByLabel("Rule 1: value").inputValue()).toBe("de, at");
    await page.getByRole("button", { name: "Remove rule 2" }).click();
    expect(await page.getByLabel("Rule 2: value").inputValue()).toBe("ref=tw");
    expect(await page.getByRole("button", { name: "Move rule 1 up" }).isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Move rule 2 down" }).isDisabled()).toBe(true);
    await page.getByLabel("Starts").fill("2030-01-02T03:04");
    await atBothWidths(page, "options-rules-shorten");

    const request = page.waitForRequest((r) => r.url().endsWith("/shorten") && r.method() === "POST");
    const response = page.waitForResponse((r) => r.url().endsWith("/shorten") && r.request().method() === "POST");
    await page.getByRole("button", { name: "Shorten" }).click();
    const rules = [
      { countries: ["DE", "AT"], url: "https://example.de/" },
      { query: { name: "ref", value: "tw" }, url: "https://example.com/from-twitter" },
    ];
    expect(sent(await request)).toMatchObject({
      url: "https://example.com/targeted",
      redirectType: 301,
      forwardQuery: false,
      allowIndexing: true,
      fallbackUrl: "https://example.com/over",
      startsAt: new Date(2030, 0, 2, 3, 4).toISOString(),
      rules,
    });

    // The saved link has them.
    const answer = await response;
    expect(answer.status()).toBe(200);
    const link = await api("GET", `/links/${((await answer.json()) as { code: string }).code}`);
    expect(link).toMatchObject({ redirectType: 301, forwardQuery: false, allowIndexing: true, fallbackUrl: "https://example.com/over", rules });
    expect(cspViolations).toEqual([]);
  });

  test("the edit form sends only what changed; rules as a whole list, kept ids kept", async () => {
    const { page } = browser;
    const { code } = (await api("POST", "/shorten", { url: "https://example.com/edit-rules" })) as { code: string };
    const item = await myLink(code);
    await item.getByRole("button", { name: `Edit ${code}` }).click();
    const form = item.getByRole("form", { name: `Edit ${code}` });
    await form.getByText("Redirect and targeting").click();
    await form.getByLabel("Redirect type").selectOption("307");
    await form.getByRole("button", { name: "Add a rule" }).click();
    await form.getByLabel("Rule 1: condition").selectOption("languages");
    await form.getByLabel("Rule 1: value").fill("DE fr");
    await form.getByLabel("Rule 1: target URL").fill("https://example.com/eu");
    await item.evaluate((el) => el.scrollIntoView());
    await atBothWidths(page, "options-rules-edit");

    const request = page.waitForRequest((r) => r.url().endsWith(`/links/${code}`) && r.method() === "PATCH");
    // The stored link is read once the PATCH is answered, not merely sent.
    const answered = page.waitForResponse((r) => r.url().endsWith(`/links/${code}`) && r.request().method() === "PATCH");
    await form.getByRole("button", { name: "Save" }).click();
    const rules = [{ languages: ["de", "fr"], url: "https://example.com/eu" }];
    expect(sent(await request)).toEqual({ redirectType: 307, rules });
    expect((await answered).status()).toBe(200);

    const link = await api("GET", `/links/${code}`);
    expect(link).toMatchObject({ redirectType: 307, rules: [{ ...rules[0], id: expect.any(String) }] });
    // Edited again, a saved rule goes back with its id.
    const again = await myLink(code);
    await again.getByRole("button", { name: `Edit ${code}` }).click();
    const edit = again.getByRole("form", { name: `Edit ${code}` });
    await edit.getByLabel("Rule 1: target URL").fill("https://example.com/eu2");
    const patch = page.waitForRequest((r) => r.url().endsWith(`/links/${code}`) && r.method() === "PATCH");
    await edit.getByRole("button", { name: "Save" }).click();
    expect(sent(await patch)).toEqual({ rules: [{ id: (link.rules as { id: string }[])[0]!.id, languages: ["de", "fr"], url: "https://example.com/eu2" }] });
    expect(cspViolations).toEqual([]);
  });
});
