// Variant A over real HTTP.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { burstClient, type BurstClient } from "./support/burst-client.ts";
import { clickCounter } from "../url/click-counting/instance.ts";
import { db } from "../url/db.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

async function shorten(url: string): Promise<{ code: string; shortUrl: string }> {
  const res = await fetch(`${server.url}/shorten`, { method: "POST", body: JSON.stringify({ url }) });
  expect(res.status).toBe(200);
  return (await res.json()) as { code: string; shortUrl: string };
}

async function storedClicks(code: string): Promise<number> {
  return (await db.queryRow<{ clicks: number }>`SELECT clicks FROM urls WHERE code = ${code}`)!.clicks;
}

describe("GET /:code", () => {
  test("returns the original URL as JSON and counts the click", async () => {
    const { code } = await shorten("https://example.com/json");
    const res = await fetch(`${server.url}/${code}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({ url: "https://example.com/json" });
    const stats = await (await fetch(`${server.url}/${code}/stats`)).json();
    expect(stats).toEqual({ code, originalUrl: "https://example.com/json", clicks: 1, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  });

  test("a browser gets a 302 to the original URL, and the click counts", async () => {
    const { code } = await shorten("https://example.com/browser");
    const res = await fetch(`${server.url}/${code}`, {
      redirect: "manual",
      headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://example.com/browser");
    expect(res.headers.get("cache-control")).toMatch(/no-store/);
    expect(((await (await fetch(`${server.url}/${code}/stats`)).json()) as { clicks: number }).clicks).toBe(1);
  });

  test("JSON stays the default for */* and for clients that ask for JSON", async () => {
    const { code } = await shorten("https://example.com/api");
    for (const accept of ["*/*", "application/json", "application/json, text/html;q=0.5"]) {
      const res = await fetch(`${server.url}/${code}`, { redirect: "manual", headers: { accept } });
      expect(res.status).toBe(200);
    }
  });

  test("HEAD answers without counting", async () => {
    const { code } = await shorten("https://example.com/head");
    const res = await fetch(`${server.url}/${code}`, { method: "HEAD" });
    expect(res.status).toBe(200);
    await clickCounter.flush();
    expect(await storedClicks(code)).toBe(0);
  });

  test.each(["zzzzzz", "ABCDEF", "abc", "abcdefg", "ab%20cd", "abc-de"])("%s is 404 not_found", async (code) => {
    const res = await fetch(`${server.url}/${code}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: "not_found", message: "url not found", details: null });
  });

  // A mistyped link opened in a browser: a page, whether the code is unknown or no code at all.
  test.each(["zzzzzz", "a.b", "ab%20cd", "x".repeat(65)])("%s in a browser is a 404 page linking home, not JSON", async (code) => {
    const res = await fetch(`${server.url}/${code}`, { headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toMatch(/^default-src 'none'; style-src 'sha256-/);
    const html = await res.text();
    expect(html).toContain("<h1>Link not found</h1>");
    expect(html).toContain('<a href="https://sho.rt/">');
  });

  test("a query string on the short link finds the link, and is added to its url (forwardQuery, on by default)", async () => {
    const { code } = await shorten("https://example.com/q");
    expect(await (await fetch(`${server.url}/${code}?utm_source=mail`)).json()).toEqual({ url: "https://example.com/q?utm_source=mail" });
  });
});

describe("POST /shorten", () => {
  test("shortUrl is PUBLIC_BASE_URL plus the code", async () => {
    const { code, shortUrl } = await shorten("https://example.com/short");
    expect(shortUrl).toBe(`https://sho.rt/${code}`); // set for the suite in vitest.config.ts
  });

  test.each([
    ['{"url": 5}', /^unable to decode request body: url: invalid type: integer `5`, expected a string$/],
    ['{"url": "javascript:alert(1)"}', /http or https/],
    ['{"url": ""}', /must not be empty/],
    ["{}", /^unable to decode request body: missing field url$/],
  ])("%s is 400 invalid_argument", async (body, message) => {
    const res = await fetch(`${server.url}/shorten`, { method: "POST", body });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(message) });
  });

  // PUBLIC_BASE_URL is https://sho.rt: each of these is that host to DNS and to a browser,
  // so the short link would lead back here.
  test.each([
    "https://sho.rt/abc",
    "https://sho.rt./abc",
    "https://SHO.RT../abc",
    "https://sho.rt%2E/abc",
    "http://sho.rt:443/abc",
    "https://sho.rt.:8443/abc",
  ])("a link to this service itself, %s, is 400 invalid_argument", async (url) => {
    const res = await fetch(`${server.url}/shorten`, { method: "POST", body: JSON.stringify({ url }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(/this service/) });
  });

  test("a host that only ends like this service's is another host", async () => {
    expect((await shorten("https://notsho.rt./abc")).code).toMatch(/^[a-z0-9]{6}$/);
  });

  test("many concurrent shortens each get their own stored code", async () => {
    const made = await Promise.all(Array.from({ length: 300 }, (_, i) => shorten(`https://example.com/many/${i}`)));
    expect(new Set(made.map((m) => m.code)).size).toBe(300);
    const sample = made[123]!;
    expect(await (await fetch(`${server.url}/${sample.code}`)).json()).toEqual({ url: "https://example.com/many/123" });
  });
});

describe("exact click counts under concurrency", () => {
  const N = 2000;
  let client: BurstClient;
  beforeAll(() => {
    client = burstClient();
  });
  afterAll(() => client.close());

  /**
   * A lookup of a stored link answers 200, or 503 with Retry-After when the instance sheds
   * load on purpose (link-cache/lookup.ts; test/lookup-shedding.test.ts makes it happen).
   * Anything else fails, with what it was.
   */
  async function lookup(code: string): Promise<200 | 503> {
    const res = await client.get(`${server.url}/${code}`);
    if (res.status === 200) return 200;
    expect({ status: res.status, retryAfter: res.headers["retry-after"], body: JSON.parse(res.body) as unknown }).toEqual({
      status: 503,
      retryAfter: "1",
      body: { code: "unavailable", message: "too many links are being looked up at once; try again in a second", details: { retryAfterSeconds: 1 } },
    });
    return 503;
  }

  test(`${N} concurrent lookups of one hot code: every one answered 200 and counted`, async () => {
    const { code } = await shorten("https://example.com/hot");
    const statuses = await Promise.all(Array.from({ length: N }, () => lookup(code)));
    // One code is one read, which every lookup arriving meanwhile joins: nothing to shed.
    expect(statuses.filter((s) => s === 200)).toHaveLength(N);
    await clickCounter.flush();
    expect(await storedClicks(code)).toBe(N);
  });

  test(`${N} concurrent lookups spread over 50 codes: each answered 200 or shed, and every 200 counted`, async () => {
    const codes = await Promise.all(Array.from({ length: 50 }, (_, i) => shorten(`https://example.com/u/${i}`)));
    const statuses = await Promise.all(Array.from({ length: N }, (_, i) => lookup(codes[i % 50]!.code)));
    await clickCounter.flush();
    const total = await db.queryRow<{ sum: number }>`
      SELECT sum(clicks)::int AS sum FROM urls WHERE code = ANY(${codes.map((c) => c.code)}::text[])`;
    expect(total!.sum).toBe(statuses.filter((s) => s === 200).length);
    // 50 reads at most, below LOOKUP_READS_AT_ONCE's 128: none shed, however slow the machine.
    expect(total!.sum).toBe(N);
  });

  test("stats reflect every click already answered, before any write", async () => {
    const { code } = await shorten("https://example.com/ryw");
    for (let i = 1; i <= 5; i++) {
      await fetch(`${server.url}/${code}`);
      const stats = (await (await fetch(`${server.url}/${code}/stats`)).json()) as { clicks: number };
      expect(stats.clicks).toBe(i);
    }
  });
});
