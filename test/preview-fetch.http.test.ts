// fetchPreview over real HTTP, on a server allowed to fetch from private addresses
// (PREVIEW_ALLOW_PRIVATE_TARGETS=on, so that a page server on loopback can be reached) with
// small limits: the preview's empty fields filled from the page, on POST /shorten and PATCH;
// a slow page given up at the time limit, a huge one read to the byte limit only, a redirect
// to this app refused; none of them failing the link. The refusals of private addresses are
// in previews.http.test.ts, on a server with the default settings.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { replyOf } from "./support/link-client.ts";
import { linkServer } from "./support/link-server.ts";
import { endless, html, neverAnswers, redirectTo, startPageServer, type PageServer } from "./support/page-server.ts";

vi.hoisted(() => {
  process.env.TRUST_PROXY = "on";
  process.env.PREVIEW_ALLOW_PRIVATE_TARGETS = "on";
  process.env.PREVIEW_FETCH_TIMEOUT_SECONDS = "1";
  process.env.PREVIEW_FETCH_MAX_KIB = "16";
  process.env.PREVIEW_FETCH_MAX_REDIRECTS = "2";
});

const links = linkServer("preview-fetch@example.com");
const { client } = links;
let pages: PageServer;

const article = `<!doctype html><html><head><title>Plain title</title>
  <meta property="og:title" content="The &amp; article"><meta name="description" content="What it says.">
  <meta property="og:image" content="/images/cover.png"></head><body><p>Text</p></body></html>`;

beforeAll(async () => {
  pages = await startPageServer({
    "/article": html(article),
    "/moved": redirectTo("/article"),
    "/other": html(`<head><meta name="twitter:title" content="Other page"><meta name="twitter:image" content="https://cdn.example/o.jpg"></head>`),
    "/slow": neverAnswers,
    "/huge": endless("Huge page"),
    "/to-this-app": redirectTo("https://sho.rt/somewhere"),
    "/image.png": (_req, res) => res.writeHead(200, { "content-type": "image/png" }).end(Buffer.alloc(10)),
  });
});
afterAll(() => pages.close());

const shorten = async (body: Record<string, unknown>) => replyOf(await links.tryShorten(body));
const patch = async (code: string, body: Record<string, unknown>) => replyOf(await links.patch(code, body));

describe("filled from the page", () => {
  test("the fields left empty, from og: tags, the description, the image resolved against the page; the card shows them", async () => {
    const made = await shorten({ url: `${pages.url}/moved`, preview: { description: "Mine" }, fetchPreview: true });
    expect(made.status).toBe(200);
    expect(made.body.previewFetch).toEqual({ ok: true });
    expect(made.body.preview).toEqual({ title: "The & article", description: "Mine", image: `${pages.url}/images/cover.png` });
    const card = await client.request("GET", `/${made.body.code as string}`, { headers: { "user-agent": "facebookexternalhit/1.1" } });
    expect(await card.text()).toContain(`<meta property="og:title" content="The &amp; article">`);
  });

  test("PATCH: from the new target, over what the link has", async () => {
    const code = (await shorten({ url: "https://example.com/first", preview: { description: "Kept" } })).body.code as string;
    const changed = await patch(code, { url: `${pages.url}/other`, fetchPreview: true });
    expect(changed.status).toBe(200);
    expect(changed.body.previewFetch).toEqual({ ok: true });
    expect(changed.body.preview).toEqual({ title: "Other page", description: "Kept", image: "https://cdn.example/o.jpg" });
  });

  test("not HTML: nothing filled, and said", async () => {
    const made = await shorten({ url: `${pages.url}/image.png`, fetchPreview: true });
    expect(made.body.previewFetch).toEqual({ ok: false, reason: "the page is not HTML (image/png)" });
    expect(made.body).not.toHaveProperty("preview");
  });
});

describe("within the limits", () => {
  test("a page that never answers: given up after PREVIEW_FETCH_TIMEOUT_SECONDS, the link stored", async () => {
    const started = Date.now();
    const made = await shorten({ url: `${pages.url}/slow`, preview: { title: "Mine" }, fetchPreview: true });
    expect(Date.now() - started).toBeLessThan(2500);
    expect(made.status).toBe(200);
    expect(made.body.previewFetch).toEqual({ ok: false, reason: "no page within 1000 ms" });
    expect(made.body.preview).toEqual({ title: "Mine" });
    const read = await client.request("GET", `/links/${made.body.code}`, { token: links.token });
    expect(read.status).toBe(200);
  });

  test("a page that never ends: its first PREVIEW_FETCH_MAX_KIB read, the connection closed", async () => {
    const made = await shorten({ url: `${pages.url}/huge`, fetchPreview: true });
    expect(made.body.previewFetch).toEqual({ ok: true });
    expect(made.body.preview).toEqual({ title: "Huge page" });
    await expect.poll(() => pages.cutOff.has("/huge")).toBe(true);
  });

  test("a redirect to this app itself is refused", async () => {
    const made = await shorten({ url: `${pages.url}/to-this-app`, fetchPreview: true });
    expect(made.status).toBe(200);
    expect(made.body.previewFetch).toEqual({ ok: false, reason: expect.stringContaining("this app itself") });
  });
});
