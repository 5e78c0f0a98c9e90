// A link's social preview edited in a real browser against the real app: the fields of the
// edit form (components/PreviewFields.tsx), filling the empty ones from the target page, and
// a refused image URL shown next to its field. The app may fetch the target page on loopback
// (PREVIEW_ALLOW_PRIVATE_TARGETS=on).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { screenshot, type Browser } from "./browser.ts";
import { startBrowserTestBed, type BrowserApp, type BrowserTestBed, type TargetServer } from "./servers.ts";

let bed: BrowserTestBed | undefined;
let app: BrowserApp;
let target: TargetServer;
let browser: Browser;
let cspViolations: string[] = [];
let token = "";

beforeAll(async () => {
  bed = await startBrowserTestBed({ PREVIEW_ALLOW_PRIVATE_TARGETS: "on" });
  ({ app, target, browser, cspViolations } = bed);
}, 120_000);

afterAll(() => bed?.close(), 60_000);

async function api(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${app.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const preview = async (code: string) => ((await (await api("GET", `/links/${code}`)).json()) as { preview?: unknown }).preview;

describe("a link's social preview, in the browser", () => {
  let code = "";

  test("logs in, with a link to edit", async () => {
    const { page } = browser;
    const email = `ada-${Date.now()}@example.com`;
    const password = "correct horse battery";
    const signedUp = await fetch(`${app.url}/users`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, name: "Ada", age: 36, password }),
    });
    expect(signedUp.status).toBe(200);
    await page.goto(`${app.url}/#/login`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Log in" }).click();
    await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/links");
    token = await page.evaluate<string>(`JSON.parse(localStorage.getItem("url-shortener.session")).token`);
    const made = await api("POST", "/shorten", { url: target.url });
    code = ((await made.json()) as { code: string }).code;
  });

  test("sets a description, fills the rest from the target page; a bad image URL is refused next to its field", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/#/links`);
    await page.reload(); // the list as it is now, the link made through the API in it
    const item = page.getByRole("main").getByRole("listitem").filter({ has: page.getByRole("link", { name: `${app.url}/${code}`, exact: true }) });
    await expect.poll(() => item.count()).toBe(1);
    await item.getByRole("button", { name: `Edit ${code}` }).click();
    await item.getByText("Social preview", { exact: true }).click();
    await item.getByLabel("Image URL").fill("not a url");
    await item.getByRole("button", { name: "Save" }).click();
    const image = item.getByLabel("Image URL");
    await expect.poll(() => image.getAttribute("aria-invalid")).toBe("true");
    expect(await item.locator(".field-error").textContent()).toMatch(/^Image URL must be an absolute http or https URL/);
    await screenshot(page, "preview-image-refused");

    await image.fill("");
    await item.getByLabel("Summary").fill("Read this first");
    await item.getByLabel("Fill the empty fields from the target page when saving").check();
    await screenshot(page, "preview-fields");
    await item.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => item.getByLabel("Summary").count()).toBe(0); // the form closed
    expect(await preview(code)).toEqual({ title: "Target page", description: "Read this first" });
  });

  test("shortens with a preview from the options; a page that cannot be fetched is said under the short link", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/#/`);
    await page.getByLabel("Long URL").fill("http://127.0.0.1:1/nothing-listens");
    await page.getByText("Options", { exact: true }).click();
    await page.getByText("Social preview", { exact: true }).click();
    await page.getByLabel("Headline").fill("From the form");
    await page.getByLabel("Fill the empty fields from the target page when saving").check();
    await page.getByRole("button", { name: "Shorten" }).click();
    const result = page.getByRole("region", { name: "Your short link" });
    await expect.poll(() => result.count()).toBe(1);
    expect(await result.locator(".notice").textContent()).toMatch(/^The preview was not filled from the target page: the page could not be fetched/);
    await screenshot(page, "preview-not-fetched");
    const shortUrl = (await result.getByRole("link").first().textContent())!;
    expect(await preview(shortUrl.split("/").at(-1)!)).toEqual({ title: "From the form" });
  });

  test("the form shows the preview; emptying a field clears it", async () => {
    const { page } = browser;
    await page.goto(`${app.url}/#/links`);
    await page.reload(); // the list as it is now, the link made through the API in it
    const item = page.getByRole("main").getByRole("listitem").filter({ has: page.getByRole("link", { name: `${app.url}/${code}`, exact: true }) });
    await expect.poll(() => item.count()).toBe(1);
    await item.getByRole("button", { name: `Edit ${code}` }).click();
    await item.getByText("Social preview", { exact: true }).click();
    expect(await item.getByLabel("Headline").inputValue()).toBe("Target page");
    await item.getByLabel("Summary").fill("");
    await item.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => preview(code)).toEqual({ title: "Target page" });
    expect(cspViolations).toEqual([]);
  });
});
