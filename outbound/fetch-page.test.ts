import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { checkTarget, type TargetRules } from "./target";
import { fetchPage, FetchFailed, type FetchLimits } from "./fetch-page";
import { endless, html, neverAnswers, redirectTo, startPageServer, type PageServer } from "../test/support/page-server";

const limits: FetchLimits = { maxBytes: 32 * 1024, timeoutMs: 1000, maxRedirects: 2 };
const open: TargetRules = { ownBaseUrl: "https://sho.rt", allowPrivate: true };
const closed: TargetRules = { ownBaseUrl: "https://sho.rt", allowPrivate: false };
const agent = "test-preview";

let pages: PageServer;
beforeAll(async () => {
  pages = await startPageServer({
    "/page": html("<title>A page</title>"),
    "/moved": redirectTo("/page"),
    "/loop": redirectTo("/loop"),
    "/to-private": redirectTo("http://10.0.0.1/"),
    "/to-loopback-v6": redirectTo("http://[::1]/"),
    "/to-own": redirectTo("https://sho.rt/abc"),
    "/slow": neverAnswers,
    "/huge": endless("Huge"),
    "/json": (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"),
    "/latin1": (_req, res) => res.writeHead(200, { "content-type": "text/html; charset=iso-8859-1" }).end(Buffer.from("<title>caf\xe9</title>", "latin1")),
    "/gone": (_req, res) => res.writeHead(410).end(),
  });
});
afterAll(() => pages.close());

describe("refused addresses, before any connection", () => {
  test.each([
    "http://127.0.0.1/",
    "http://10.1.2.3/",
    "http://192.168.0.1/",
    "http://172.16.5.5/",
    "http://169.254.169.254/latest/meta-data",
    "http://100.64.0.1/",
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",
    "http://[fd00::1]/",
    "http://[fe80::1]/",
    "http://0.0.0.0/",
    "http://224.0.0.1/",
  ])("%s", async (url) => {
    await expect(fetchPage(url, closed, limits, agent)).rejects.toThrow(/non-public/);
  });

  test("a name resolving to loopback", async () => {
    await expect(fetchPage("http://localhost/", closed, limits, agent)).rejects.toThrow(/non-public/);
  });

  test("the app's own host, on any port, even with private addresses allowed on its own origin", async () => {
    await expect(fetchPage("https://sho.rt:8443/x", closed, limits, agent)).rejects.toThrow(/this app itself/);
    await expect(fetchPage("https://sho.rt/x", open, limits, agent)).rejects.toThrow(/this app itself/);
  });

  test("the loopback page server itself, unless allowed", async () => {
    await expect(fetchPage(`${pages.url}/page`, closed, limits, agent)).rejects.toThrow(/non-public/);
  });
});

describe("with private addresses allowed (a page server on loopback)", () => {
  test("a page: its text, the address it was found at", async () => {
    const page = await fetchPage(`${pages.url}/page`, open, limits, agent);
    expect(page).toEqual({ url: `${pages.url}/page`, html: "<title>A page</title>", truncated: false });
  });

  test("its charset", async () => {
    expect((await fetchPage(`${pages.url}/latin1`, open, limits, agent)).html).toBe("<title>café</title>");
  });

  test("a redirect is followed, a few only", async () => {
    expect((await fetchPage(`${pages.url}/moved`, open, limits, agent)).url).toBe(`${pages.url}/page`);
    await expect(fetchPage(`${pages.url}/loop`, open, limits, agent)).rejects.toThrow("more than 2 redirects");
  });

  test("a redirect to this app is refused", async () => {
    await expect(fetchPage(`${pages.url}/to-own`, open, limits, agent)).rejects.toThrow(/this app itself/);
  });

  test("only HTML, only 2xx", async () => {
    await expect(fetchPage(`${pages.url}/json`, open, limits, agent)).rejects.toThrow("the page is not HTML (application/json)");
    await expect(fetchPage(`${pages.url}/gone`, open, limits, agent)).rejects.toThrow("the page answered 410");
  });

  test("a page that never answers: given up at the time limit", async () => {
    const started = Date.now();
    await expect(fetchPage(`${pages.url}/slow`, open, limits, agent)).rejects.toThrow(new FetchFailed("no page within 1000 ms"));
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  test("a page that never ends: read to the byte limit, the rest not downloaded", async () => {
    const page = await fetchPage(`${pages.url}/huge`, open, limits, agent);
    expect(page.truncated).toBe(true);
    expect(Buffer.byteLength(page.html)).toBe(limits.maxBytes);
    expect(page.html).toMatch(/^<html><head><title>Huge<\/title>/);
    await expect.poll(() => pages.cutOff.has("/huge")).toBe(true);
  });
});

describe("every hop checked again", () => {
  // The page server alone is let through (it is on loopback); every other address by the real rules.
  const onlyThePageServer = (url: string, rules: TargetRules) =>
    checkTarget(url, url.startsWith(pages.url) ? { ...rules, allowPrivate: true } : rules);

  test("a redirect to a private address is refused", async () => {
    await expect(fetchPage(`${pages.url}/to-private`, closed, limits, agent, onlyThePageServer)).rejects.toThrow(/10\.0\.0\.1 is .*non-public/);
    await expect(fetchPage(`${pages.url}/to-loopback-v6`, closed, limits, agent, onlyThePageServer)).rejects.toThrow(/non-public/);
  });
});
