// Link previews over real HTTP, on a server with the default settings (no fetch may reach a
// private address): the preview fields on links, the card GET /:code shows link-preview bots
// (escaped, counted as a bot's click), the redirect everyone else gets, and fetchPreview
// refused for loopback and private addresses without failing the link.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { browserAccept, expectPageHeaders, replyOf, storedClicks } from "./support/link-client.ts";
import { linkServer } from "./support/link-server.ts";
import { html, startPageServer, type PageServer } from "./support/page-server.ts";

vi.hoisted(() => {
  process.env.TRUST_PROXY = "on"; // read once, when the configs load: each test names its address
  process.env.PREVIEW_ALLOW_PRIVATE_TARGETS = "off";
});

const twitterbot = "Twitterbot/1.0";
const slackbot = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)";
const chrome = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36";
const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

const links = linkServer("previews@example.com");
const { client } = links;
let pages: PageServer;
beforeAll(async () => {
  pages = await startPageServer({ "/page": html(`<title>Never read</title>`) });
});
afterAll(() => pages.close());

const shorten = async (body: Record<string, unknown>) => replyOf(await links.tryShorten(body));
const patch = async (code: string, body: Record<string, unknown>) => replyOf(await links.patch(code, body));
const getAs = (code: string, userAgent: string, accept = "*/*") => client.request("GET", `/${code}`, { headers: { "user-agent": userAgent, accept } });

const hostile = {
  title: `"><script>alert(1)</script>`,
  description: `Fish & chips <b>bold</b> 'quoted'`,
  image: `https://img.example/a.png?x="y"&z=<w>`,
};

describe("the preview fields", () => {
  test("stored as given and answered on the link, by POST /shorten, GET and PATCH /links/:code", async () => {
    const made = await shorten({ url: "https://example.com/fields", preview: { title: "T", description: "D", image: "https://img.example/i.png" } });
    expect(made.status).toBe(200);
    expect(made.body.preview).toEqual({ title: "T", description: "D", image: "https://img.example/i.png" });
    expect(made.body).not.toHaveProperty("previewFetch");
    const code = made.body.code as string;
    const read = await client.request("GET", `/links/${code}`, { token: links.token });
    expect(((await read.json()) as { preview: unknown }).preview).toEqual({ title: "T", description: "D", image: "https://img.example/i.png" });
    // Left out stays, null clears one, "" clears one.
    expect((await patch(code, { preview: { title: "T2", image: null } })).body.preview).toEqual({ title: "T2", description: "D" });
    expect((await patch(code, { preview: { description: "" } })).body.preview).toEqual({ title: "T2" });
    // null clears all: no preview on the link any more.
    expect((await patch(code, { preview: null })).body).not.toHaveProperty("preview");
  });

  test("PATCH with fetchPreview false alone changes nothing: 400", async () => {
    const code = (await shorten({ url: "https://example.com/nothing" })).body.code as string;
    expect(await patch(code, { fetchPreview: false })).toMatchObject({ status: 400, body: { message: expect.stringContaining("nothing to change") } });
  });

  test("a link without one has no preview field", async () => {
    const made = await shorten({ url: "https://example.com/none" });
    expect(made.body).not.toHaveProperty("preview");
  });

  test.each([
    [{ title: "x".repeat(201) }, "preview.title must be at most 200 characters"],
    [{ description: "x".repeat(1001) }, "preview.description must be at most 1000 characters"],
    [{ image: "/relative.png" }, "preview.image must be an absolute http or https URL"],
    [{ image: "javascript:alert(1)" }, "preview.image must be an absolute http or https URL"],
    [{ image: `https://img.example/${"x".repeat(2048)}` }, "preview.image must be an absolute http or https URL"],
  ])("refused: %j, 400 naming the field", async (preview, message) => {
    const made = await shorten({ url: "https://example.com/refused", preview });
    expect(made.status).toBe(400);
    expect(made.body).toMatchObject({ code: "invalid_argument", message: expect.stringContaining(message) });
    const code = (await shorten({ url: "https://example.com/refused-patch" })).body.code as string;
    expect(await patch(code, { preview })).toMatchObject({ status: 400, body: { code: "invalid_argument", message: expect.stringContaining(message) } });
  });

  test("POST /links/bulk: each item its own preview", async () => {
    const res = await client.post(
      "/links/bulk",
      { items: [{ url: "https://example.com/b1", preview: { title: "One" } }, { url: "https://example.com/b2" }, { url: "https://example.com/b3", preview: { title: "x".repeat(201) } }] },
      { token: links.token, from: client.nextAddress() },
    );
    const { results } = (await res.json()) as { results: Record<string, unknown>[] };
    expect(results[0]!.preview).toEqual({ title: "One" });
    expect(results[1]).not.toHaveProperty("preview");
    expect(results[2]).toMatchObject({ error: { code: "invalid_argument", message: expect.stringContaining("preview.title") } });
  });
});

describe("GET /:code", () => {
  test("a link-preview bot gets the card: every value escaped, the page headers, counted as a click", async () => {
    const made = await shorten({ url: "https://example.com/card?a=1&b=2", preview: hostile });
    const code = made.body.code as string;
    const res = await getAs(code, twitterbot);
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const page = await res.text();
    expect(page).not.toContain("<script>");
    expect(page).not.toContain("<b>");
    expect(page).toContain(`<meta property="og:title" content="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">`);
    expect(page).toContain(`<meta property="og:description" content="Fish &amp; chips &lt;b&gt;bold&lt;/b&gt; &#39;quoted&#39;">`);
    expect(page).toContain(`<meta property="og:image" content="https://img.example/a.png?x=%22y%22&amp;z=%3Cw%3E">`);
    expect(page).toContain(`<meta property="og:url" content="${made.body.shortUrl as string}">`);
    expect(page).toContain(`<meta name="twitter:card" content="summary_large_image">`);
    expect(page).toContain(`<meta http-equiv="refresh" content="0;url=https://example.com/card?a=1&amp;b=2">`);
    expect(page).toContain(`<a href="https://example.com/card?a=1&amp;b=2">`);
    // A bot's click, as before previews: analytics keeps bots apart.
    expect(await storedClicks(code)).toBe(1);
    // Other preview bots, with a browser's Accept too; HEAD the same without a body.
    expect((await getAs(code, slackbot, browserAccept)).status).toBe(200);
    const head = await client.request("HEAD", `/${code}`, { headers: { "user-agent": slackbot } });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBe(Buffer.byteLength(page));
  });

  test("a browser, a search crawler and an API client are redirected as before", async () => {
    const code = (await shorten({ url: "https://example.com/people", preview: { title: "People" } })).body.code as string;
    const browser = await getAs(code, chrome, browserAccept);
    expect(browser.status).toBe(302);
    expect(browser.headers.get("location")).toBe("https://example.com/people");
    expect((await getAs(code, googlebot, browserAccept)).status).toBe(302);
    const api = await getAs(code, "curl/8.5.0");
    expect(await api.json()).toEqual({ url: "https://example.com/people" });
  });

  test("a link without a preview: bots are redirected too", async () => {
    const code = (await shorten({ url: "https://example.com/plain" })).body.code as string;
    const bot = await getAs(code, twitterbot, browserAccept);
    expect(bot.status).toBe(302);
    expect(bot.headers.get("location")).toBe("https://example.com/plain");
  });

  test("a card without an image is a summary card, titled by the target's host without a title", async () => {
    const code = (await shorten({ url: "https://example.com/no-image", preview: { description: "Only words" } })).body.code as string;
    const page = await (await getAs(code, twitterbot)).text();
    expect(page).toContain(`<meta name="twitter:card" content="summary">`);
    expect(page).toContain(`<meta property="og:title" content="example.com">`);
    expect(page).not.toContain("og:image");
  });

  test("a change of the preview shows at once; clearing it turns the card back into the redirect", async () => {
    const code = (await shorten({ url: "https://example.com/changes", preview: { title: "Before" } })).body.code as string;
    expect(await (await getAs(code, twitterbot)).text()).toContain("Before");
    await patch(code, { preview: { title: "After" } });
    expect(await (await getAs(code, twitterbot)).text()).toContain("After");
    await patch(code, { preview: null });
    expect((await getAs(code, twitterbot, browserAccept)).status).toBe(302);
  });
});

describe("fetchPreview with the default settings", () => {
  test.each([
    ["127.0.0.1 (the page server itself)", () => `${pages.url}/page`],
    ["10.x", () => "http://10.20.30.40/"],
    ["192.168.x", () => "http://192.168.1.1/"],
    ["[::1]", () => "http://[::1]/"],
    ["a name resolving to loopback", () => "http://localhost:9/"],
  ])("%s is not fetched: the link is stored, the answer says why", async (_name, url) => {
    const made = await shorten({ url: url(), preview: { title: "Kept" }, fetchPreview: true });
    expect(made.status).toBe(200);
    expect(made.body.previewFetch).toEqual({ ok: false, reason: expect.stringMatching(/non-public/) });
    expect(made.body.preview).toEqual({ title: "Kept" });
    expect(pages.requests).toEqual([]);
  });

  test("PATCH says so too", async () => {
    const code = (await shorten({ url: "http://192.168.7.7/" })).body.code as string;
    const changed = await patch(code, { fetchPreview: true });
    expect(changed.status).toBe(200);
    expect(changed.body.previewFetch).toEqual({ ok: false, reason: expect.stringMatching(/non-public/) });
    expect(changed.body).not.toHaveProperty("preview");
  });
});
