// Tags in a real browser against the real app: My links shows each link's tags, filters by
// them, tags the selected links in one go and takes a tag off them, edits a link's tags in
// its form, and a tag's page shows its links' clicks; at a phone's width and a desktop's,
// with no horizontal overflow. The tests run in order and share one browser and one user.
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { screenshot, type Browser } from "./browser.ts";
import { startBrowserTestBed, type BrowserApp, type BrowserTestBed } from "./servers.ts";

let bed: BrowserTestBed | undefined;
let app: BrowserApp;
let browser: Browser;
let cspViolations: string[] = [];
let token = "";
let userID = "";
const codes: string[] = [];
const shots = "/tmp/shots-tags";

beforeAll(async () => {
  bed = await startBrowserTestBed();
  ({ app, browser, cspViolations } = bed);
  mkdirSync(shots, { recursive: true });
}, 120_000);

afterAll(() => bed?.close(), 60_000);

async function api(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}`).toBe(200);
  const text = await res.text();
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

const tagsOf = async (code: string) => (await api("GET", `/links/${code}`)).tags as string[];
const listed = () => browser.page.getByRole("main").locator("ul.links > li");
const notice = () => browser.page.locator("main p[role=status]");

/** Both widths, each a full-page PNG to look at, and no sideways scrolling at either. */
async function atBothWidths(name: string): Promise<void> {
  const { page } = browser;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - document.documentElement.clientWidth");
    expect(overflow, `${name} at ${width}px`).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
  }
  await screenshot(page, name);
}

describe("tags on My links", () => {
  test("each link shows its tags; a tag filters the list", async () => {
    const email = `tagger-${Date.now()}@example.com`;
    const password = "correct horse battery";
    const json = { "content-type": "application/json" };
    const made = await fetch(`${app.url}/users`, { method: "POST", headers: json, body: JSON.stringify({ email, name: "Tagger", age: 40, password }) });
    userID = ((await made.json()) as { id: string }).id;
    const login = (await (await fetch(`${app.url}/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ email, password }) })).json()) as {
      token: string;
      expiresAt: string;
    };
    token = login.token;
    for (const [i, tags] of [["launch", "spring sale"], ["launch"], [], [], []].entries()) {
      codes.push((await api("POST", "/shorten", { url: `https://tags.example/page-${i}`, title: `Page ${i}`, tags })).code as string);
    }
    const { page } = browser;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(app.url);
    await page.evaluate(`localStorage.setItem("url-shortener.session", ${JSON.stringify(JSON.stringify({ token, email, expiresAt: login.expiresAt }))})`);
    // The page reads its session when it starts.
    await page.goto(`${app.url}/#/links`);
    await page.reload();
    await expect.poll(() => listed().count()).toBe(5);

    const first = listed().filter({ hasText: "Page 0" });
    expect(await first.getByRole("list", { name: "Tags" }).getByRole("listitem").allInnerTexts()).toEqual(["launch", "spring sale"]);
    const filter = page.getByRole("group", { name: "Filter by tags" });
    await filter.getByRole("button", { name: /^launch/ }).click();
    await expect.poll(() => listed().count()).toBe(2);
    expect(await filter.getByRole("button", { name: /^launch/ }).getAttribute("aria-pressed")).toBe("true");
    await filter.getByRole("button", { name: /^spring sale/ }).click();
    await page.getByRole("group", { name: "Links with" }).getByRole("button", { name: "All" }).click();
    await expect.poll(() => listed().count()).toBe(1);
    await atBothWidths("tags-filtered");
    // Off again: every link.
    await filter.getByRole("button", { name: /^launch/ }).click();
    await filter.getByRole("button", { name: /^spring sale/ }).click();
    await expect.poll(() => listed().count()).toBe(5);
  });

  test("the selected links get a tag in one go, and lose it again", async () => {
    const { page } = browser;
    for (const code of codes.slice(2)) await page.getByRole("checkbox", { name: `Select ${code}` }).check();
    const bar = page.getByRole("form", { name: "Tag the selected links" });
    expect(await bar.getByText("3 selected").isVisible()).toBe(true);
    await bar.getByLabel("Tag").fill("Newsletter");
    await atBothWidths("tags-selected");
    await bar.getByRole("button", { name: "Add to selected" }).click();
    await expect.poll(() => notice().innerText()).toBe("Tagged 3 links with Newsletter.");
    for (const code of codes.slice(2)) expect(await tagsOf(code)).toEqual(["Newsletter"]);
    expect(await tagsOf(codes[0]!)).toEqual(["launch", "spring sale"]);
    // The list and the filter show it at once; the selection is cleared.
    await expect.poll(() => page.getByRole("group", { name: "Filter by tags" }).getByRole("button", { name: /^Newsletter/ }).innerText()).toBe("Newsletter 3");
    expect(await page.getByRole("checkbox", { name: `Select ${codes[2]}` }).isChecked()).toBe(false);
    await expect.poll(() => listed().filter({ hasText: "Newsletter" }).count()).toBe(3);
    await atBothWidths("tags-applied");

    await page.getByRole("checkbox", { name: `Select ${codes[4]}` }).check();
    await page.getByRole("form", { name: "Tag the selected links" }).getByLabel("Tag").fill("newsletter");
    await page.getByRole("button", { name: "Remove from selected" }).click();
    await expect.poll(() => notice().innerText()).toBe("Took newsletter off 1 link.");
    expect(await tagsOf(codes[4]!)).toEqual([]);
    expect(await tagsOf(codes[3]!)).toEqual(["Newsletter"]);
  });

  test("a link's tags are edited in its form", async () => {
    const item = listed().filter({ hasText: "Page 1" });
    await item.getByRole("button", { name: `Edit ${codes[1]}` }).click();
    const tags = item.getByRole("textbox", { name: "Tags" });
    expect(await tags.inputValue()).toBe("launch");
    await tags.fill("launch, Autumn");
    await item.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => notice().innerText()).toContain("Saved");
    expect(await tagsOf(codes[1]!)).toEqual(["Autumn", "launch"]);
    expect(await item.getByRole("list", { name: "Tags" }).getByRole("listitem").allInnerTexts()).toEqual(["Autumn", "launch"]);
  });

  test("a tag's page shows the clicks of its links", async () => {
    const { page } = browser;
    for (const code of codes.slice(0, 2)) await fetch(`${app.url}/${code}`, { headers: { "user-agent": "curl/8.5.0" } });
    const launch = ((await api("GET", `/workspaces/${userID}/tags`)).tags as { id: number; name: string }[]).find((t) => t.name === "launch")!;
    await page.goto(`${app.url}/#/links`);
    await page.getByRole("link", { name: "Clicks of tag launch" }).click();
    await expect.poll(() => page.evaluate<string>("location.hash")).toBe(`#/workspaces/${userID}/tags/${launch.id}`);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("Tag launch");
    // Clicks are flushed a moment after they are answered: the page is read until they show.
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.locator(".totals div").first().locator("dd").innerText({ timeout: 5000 });
        },
        { timeout: 15_000 },
      )
      .toBe("2");
    expect(await page.locator(".tag-links").innerText()).toBe("2");
    await atBothWidths("tag-clicks");
  });

  test("a tag is renamed and deleted on its page", async () => {
    const { page } = browser;
    const name = page.getByRole("textbox", { name: "Name" });
    await name.fill("autumn"); // Autumn's, in another case
    await page.getByRole("button", { name: "Rename" }).click();
    await expect.poll(() => page.locator("#tag-name-error").innerText()).toContain("already");
    await name.fill("Launch 2026");
    await page.getByRole("button", { name: "Rename" }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("Tag Launch 2026");
    expect(await tagsOf(codes[0]!)).toEqual(["Launch 2026", "spring sale"]);

    await page.getByRole("button", { name: "Delete tag Launch 2026" }).click();
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await expect.poll(() => page.evaluate<string>("location.hash")).toBe("#/links");
    await expect.poll(() => listed().count()).toBe(5);
    expect(await tagsOf(codes[0]!)).toEqual(["spring sale"]);
    expect(await page.getByRole("group", { name: "Filter by tags" }).getByRole("button").allInnerTexts()).toEqual(["Autumn 1", "Newsletter 2", "spring sale 1"]);
    expect(cspViolations).toEqual([]);
  });

  test("a viewer of a team reads a tag's page and is offered neither renaming nor deleting it", async () => {
    const { page } = browser;
    const team = (await api("POST", "/workspaces", { name: "Tag readers" })).id as string;
    const tag = (await api("POST", `/workspaces/${team}/tags`, { name: "shared" })).id as number;
    const invitation = (await api("POST", `/workspaces/${team}/invitations`, { role: "viewer" })).token as string;
    const email = `tag-viewer-${Date.now()}@example.com`;
    const password = "correct horse battery";
    const json = { "content-type": "application/json" };
    expect((await fetch(`${app.url}/users`, { method: "POST", headers: json, body: JSON.stringify({ email, name: "Viewer", password }) })).status).toBe(200);
    const login = (await (await fetch(`${app.url}/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ email, password }) })).json()) as {
      token: string;
      expiresAt: string;
    };
    const accepted = await fetch(`${app.url}/invitations/accept`, {
      method: "POST",
      headers: { ...json, authorization: `Bearer ${login.token}` },
      body: JSON.stringify({ token: invitation }),
    });
    expect(accepted.status).toBe(200);

    await page.evaluate(`localStorage.setItem("url-shortener.session", ${JSON.stringify(JSON.stringify({ token: login.token, email, expiresAt: login.expiresAt }))})`);
    await page.goto(`${app.url}/#/workspaces/${team}/tags/${tag}`);
    await page.reload();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).innerText()).toBe("Tag shared");
    await expect.poll(() => page.locator(".tag-links").innerText()).toBe("0");
    expect(await page.getByRole("button", { name: "Rename" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: /^Delete/ }).count()).toBe(0);
    expect(cspViolations).toEqual([]);
  });
});
