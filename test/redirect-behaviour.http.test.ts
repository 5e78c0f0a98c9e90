// How a link redirects, over real HTTP: its redirect type, query forwarding, a start time, a
// fallback URL once it ended, X-Robots-Tag, and GET /robots.txt; the options' checks on
// POST /shorten, POST /links/bulk and PATCH /links/:code.
import { describe, expect, test, vi } from "vitest";
import { db } from "../url/db.ts";
import { clickCounter } from "../url/click-counting/instance.ts";
import { urlCache } from "../url/link-cache/cache.ts";
import { defaultRedirect } from "../url/link-cache/answer-headers.ts";
import { browserAccept, expectPageHeaders, storedClicks } from "./support/link-client.ts";
import { linkServer } from "./support/link-server.ts";

vi.hoisted(() => {
  process.env.TRUST_PROXY = "on"; // read once, when the configs load: each test names its address
});

const links = linkServer("redirects@example.com");
const { client, shorten: shortenAs, tryShorten, patch, readLink } = links;
/** GET (or HEAD) of a short link as a browser, or as an API client. */
const browse = (path: string, method = "GET") => client.request(method, path, { from: client.nextAddress(), headers: { accept: browserAccept } });
const call = (path: string, method = "GET") => client.request(method, path, { from: client.nextAddress() });

/** The analytics rows' clicks of a link, once every counted click is written. */
async function analyticsClicks(code: string): Promise<number> {
  await clickCounter.flush();
  const row = await db.queryRow<{ clicks: number }>`SELECT coalesce(sum(clicks), 0)::int AS clicks FROM link_clicks_hourly WHERE code = ${code}`;
  return row!.clicks;
}

describe("the redirect type", () => {
  test("a link left at the defaults: 302, the query forwarded, noindex; its Link says so", async () => {
    const code = await shortenAs({ url: "https://example.com/defaults" });
    const res = await browse(`/${code}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://example.com/defaults");
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const link = await readLink(code);
    expect(link).toMatchObject({ redirectType: 302, forwardQuery: true, allowIndexing: false, status: "active" });
    expect(link).not.toHaveProperty("startsAt");
    expect(link).not.toHaveProperty("fallbackUrl");
    // The defaults' shared headers: a plain link costs what it did.
    expect(urlCache.get(code)).toMatchObject({ rules: undefined, how: defaultRedirect });
  });

  test("a link with one slash after it is the link (the router serves /:code at /:code/ too, as Encore's does), its query forwarded", async () => {
    const code = await shortenAs({ url: "https://example.com/slash" });
    const res = await browse(`/${code}/?ref=x`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://example.com/slash?ref=x");
    expect((await call(`/${code}//`)).status).toBe(404);
    // A password link is as guarded there: asked for its password, its target not told.
    const guarded = await shortenAs({ url: "https://example.com/slash-guarded", password: "pw" });
    const asked = await call(`/${guarded}/`);
    expect(asked.status).toBe(401);
    expect(await asked.text()).not.toContain("slash-guarded");
    const page = await browse(`/${guarded}/`);
    expect(page.headers.get("location")).toBeNull();
    expect(await page.text()).not.toContain("slash-guarded");
  });

  test.each([301, 302, 307, 308])("%i: a browser's redirect answers with it; an API client still gets 200 {url}", async (redirectType) => {
    const code = await shortenAs({ url: `https://example.com/type-${redirectType}`, redirectType });
    const res = await browse(`/${code}`);
    expect(res.status).toBe(redirectType);
    expect(res.headers.get("location")).toBe(`https://example.com/type-${redirectType}`);
    const api = await call(`/${code}`);
    expect(api.status).toBe(200);
    expect(await api.json()).toEqual({ url: `https://example.com/type-${redirectType}` });
    expect((await browse(`/${code}`, "HEAD")).status).toBe(redirectType);
    expect(await readLink(code)).toMatchObject({ redirectType });
    expect(await storedClicks(code)).toBe(2); // HEAD counts nothing
  });

  test("PATCH changes it at once, and null brings back 302", async () => {
    const code = await shortenAs({ url: "https://example.com/retype" });
    expect((await browse(`/${code}`)).status).toBe(302); // cached
    const changed = await patch(code, { redirectType: 308 });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ redirectType: 308 });
    expect((await browse(`/${code}`)).status).toBe(308);
    expect(await (await patch(code, { redirectType: null })).json()).toMatchObject({ redirectType: 302 });
    expect((await browse(`/${code}`)).status).toBe(302);
  });
});

describe("query forwarding", () => {
  test("on by default: the query is added, the target's own parameters win, its fragment stays last; the JSON url too", async () => {
    const code = await shortenAs({ url: "https://example.com/p?id=1#top" });
    const res = await browse(`/${code}?utm_source=x&id=2&ref=y`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://example.com/p?id=1&utm_source=x&ref=y#top");
    const api = await call(`/${code}?utm_source=x&id=2`);
    expect(api.status).toBe(200);
    expect(await api.json()).toEqual({ url: "https://example.com/p?id=1&utm_source=x#top" });
    expect(await storedClicks(code)).toBe(2); // still the one link's clicks
    // The query is not kept: a request without one gets the target as it is.
    expect((await browse(`/${code}`)).headers.get("location")).toBe("https://example.com/p?id=1#top");
  });

  test("off: the target as it is, whatever the query", async () => {
    const code = await shortenAs({ url: "https://example.com/fixed", forwardQuery: false });
    expect((await browse(`/${code}?utm=x`)).headers.get("location")).toBe("https://example.com/fixed");
    expect(await (await call(`/${code}?utm=x`)).json()).toEqual({ url: "https://example.com/fixed" });
    expect(await readLink(code)).toMatchObject({ forwardQuery: false });
    // Turned on by PATCH, heard at once.
    expect((await patch(code, { forwardQuery: true })).status).toBe(200);
    expect((await browse(`/${code}?utm=x`)).headers.get("location")).toBe("https://example.com/fixed?utm=x");
  });
});

describe("a start time", () => {
  test("before it: 404 link not active yet (a page for a browser), no click, status scheduled; after it: the redirect", async () => {
    const startsAt = new Date(Date.now() + 3_600_000);
    const code = await shortenAs({ url: "https://example.com/later", startsAt });
    const api = await call(`/${code}`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ code: "not_found", message: "link not active yet", details: null });
    const page = await browse(`/${code}`);
    expect(page.status).toBe(404);
    expectPageHeaders(page);
    expect(await page.text()).toContain("This link is not active yet");
    expect(await readLink(code)).toMatchObject({ status: "scheduled", startsAt: startsAt.toISOString() });
    const list = async (status: string) =>
      ((await (await client.request("GET", `/links?status=${status}`, { token: links.token })).json()) as { links: { code: string }[] }).links.map((l) => l.code);
    expect(await list("inactive")).toContain(code);
    expect(await list("active")).not.toContain(code);
    expect(await storedClicks(code)).toBe(0);

    // Moved into the past by PATCH: it redirects from the next request on.
    const started = await patch(code, { startsAt: new Date(Date.now() - 1000) });
    expect(started.status).toBe(200);
    expect(await started.json()).toMatchObject({ status: "active" });
    expect((await browse(`/${code}`)).status).toBe(302);
    expect(await list("active")).toContain(code);
    expect(await storedClicks(code)).toBe(1);
  });

  test("a start a moment ahead: 404 before it, 302 once it passed (the cached link decides by the clock)", async () => {
    const startsAt = Date.now() + 1500;
    const code = await shortenAs({ url: "https://example.com/soon", startsAt: new Date(startsAt) });
    const before = await browse(`/${code}`);
    // Asked before the start (the answer may come a little after it on a slow machine).
    if (Date.now() < startsAt) expect(before.status).toBe(404);
    await expect.poll(async () => (await browse(`/${code}`, "HEAD")).status, { timeout: 5000, interval: 100 }).toBe(302);
    expect(Date.now()).toBeGreaterThanOrEqual(startsAt);
    expect((await browse(`/${code}`)).status).toBe(302);
  });

  test("null clears it", async () => {
    const code = await shortenAs({ url: "https://example.com/unscheduled", startsAt: new Date(Date.now() + 3_600_000) });
    expect((await call(`/${code}`)).status).toBe(404);
    // The password form's POST too: 404, its body unread, nothing counted.
    const posted = await client.request("POST", `/${code}`, { headers: { "content-type": "application/x-www-form-urlencoded" } }, "password=x");
    expect(posted.status).toBe(404);
    expect(await posted.json()).toMatchObject({ message: "link not active yet" });
    expect(await storedClicks(code)).toBe(0);
    const cleared = await patch(code, { startsAt: null });
    expect(await cleared.json()).not.toHaveProperty("startsAt");
    expect((await call(`/${code}`)).status).toBe(200);
  });
});

describe("a fallback URL", () => {
  test("once expired: the link's redirect type to the fallback, no click counted, no analytics row", async () => {
    const code = await shortenAs({
      url: "https://example.com/sale",
      expiresAt: new Date(Date.now() + 3_600_000),
      fallbackUrl: "https://example.com/sale-over",
      redirectType: 307,
    });
    expect(await readLink(code)).toMatchObject({ fallbackUrl: "https://example.com/sale-over" });
    const live = await browse(`/${code}`);
    expect(live.status).toBe(307);
    expect(live.headers.get("location")).toBe("https://example.com/sale");
    await db.exec`UPDATE urls SET expires_at = now() - interval '1 second' WHERE code = ${code}`;
    // Waited for with HEAD, which counts nothing either way.
    await expect.poll(async () => (await browse(`/${code}`, "HEAD")).headers.get("location")).toBe("https://example.com/sale-over");
    const ended = await browse(`/${code}?utm=x`);
    expect(ended.status).toBe(307);
    expect(ended.headers.get("location")).toBe("https://example.com/sale-over?utm=x");
    expect(ended.headers.get("x-robots-tag")).toBe("noindex");
    const api = await call(`/${code}`);
    expect(api.status).toBe(200);
    expect(await api.json()).toEqual({ url: "https://example.com/sale-over" });
    expect(await storedClicks(code)).toBe(1);
    expect(await analyticsClicks(code)).toBe(1);
    expect(await readLink(code)).toMatchObject({ status: "expired" });
  });

  test("once out of clicks: the fallback instead of the 404, uncounted", async () => {
    const code = await shortenAs({ url: "https://example.com/once", maxClicks: 1, fallbackUrl: "https://example.com/gone" });
    expect((await browse(`/${code}`)).headers.get("location")).toBe("https://example.com/once");
    const second = await browse(`/${code}`);
    expect(second.status).toBe(302);
    expect(second.headers.get("location")).toBe("https://example.com/gone");
    expect(await (await call(`/${code}`)).json()).toEqual({ url: "https://example.com/gone" });
    expect(await storedClicks(code)).toBe(1);
    expect(await analyticsClicks(code)).toBe(1);
    // Cleared by PATCH: the link's 404 again.
    expect((await patch(code, { fallbackUrl: null })).status).toBe(200);
    const noFallback = await call(`/${code}`);
    expect(noFallback.status).toBe(404);
    expect(await noFallback.json()).toMatchObject({ message: "link reached its maximum number of clicks" });
  });

  test("the password form's answer: 303 to the target, the query forwarded; spent, 303 to the fallback", async () => {
    const code = await shortenAs({ url: "https://example.com/locked", password: "pw", maxClicks: 1, fallbackUrl: "https://example.com/locked-over" });
    const post = () =>
      client.request(
        "POST",
        `/${code}?utm=mail`,
        { from: client.nextAddress(), headers: { accept: browserAccept, "content-type": "application/x-www-form-urlencoded" } },
        "password=pw",
      );
    const first = await post();
    expect(first.status).toBe(303);
    expect(first.headers.get("location")).toBe("https://example.com/locked?utm=mail");
    expect(first.headers.get("x-robots-tag")).toBe("noindex");
    const second = await post();
    expect(second.status).toBe(303);
    expect(second.headers.get("location")).toBe("https://example.com/locked-over?utm=mail");
    expect(await storedClicks(code)).toBe(1);
  });

  test("a password link's fallback asks for no password: the password guards the target", async () => {
    const code = await shortenAs({ url: "https://example.com/guarded", password: "pw", expiresAt: new Date(Date.now() + 3_600_000), fallbackUrl: "https://example.com/open" });
    expect((await call(`/${code}`)).status).toBe(401);
    await db.exec`UPDATE urls SET expires_at = now() - interval '1 second' WHERE code = ${code}`;
    await expect.poll(async () => (await browse(`/${code}`, "HEAD")).status).toBe(302);
    expect((await browse(`/${code}`)).headers.get("location")).toBe("https://example.com/open");
  });

  test("not for a link deleted, disabled or not started: their 404s", async () => {
    const code = await shortenAs({ url: "https://example.com/x", startsAt: new Date(Date.now() + 3_600_000), expiresAt: new Date(Date.now() + 7_200_000), fallbackUrl: "https://example.com/fb" });
    expect((await call(`/${code}`)).status).toBe(404);
    await db.exec`UPDATE urls SET starts_at = NULL, expires_at = now() - interval '1 second', disabled_at = now(), disabled_reason = 'abuse' WHERE code = ${code}`;
    await expect.poll(async () => (await call(`/${code}`)).json()).toMatchObject({ message: "link disabled for abuse" });
  });
});

describe("X-Robots-Tag", () => {
  test("noindex on the redirect and the JSON answer, unless the link allows indexing", async () => {
    const hidden = await shortenAs({ url: "https://example.com/hidden" });
    for (const res of [await browse(`/${hidden}`), await call(`/${hidden}`), await call(`/${hidden}?q=1`), await browse(`/${hidden}`, "HEAD")]) {
      expect(res.headers.get("x-robots-tag")).toBe("noindex");
    }
    const indexed = await shortenAs({ url: "https://example.com/indexed", allowIndexing: true });
    expect(await readLink(indexed)).toMatchObject({ allowIndexing: true });
    for (const res of [await browse(`/${indexed}`), await call(`/${indexed}`), await call(`/${indexed}?q=1`)]) {
      expect(res.status).toBeLessThan(400);
      expect(res.headers.get("x-robots-tag")).toBeNull();
    }
    // Changed by PATCH, heard at once.
    expect((await patch(indexed, { allowIndexing: false })).status).toBe(200);
    expect((await browse(`/${indexed}`)).headers.get("x-robots-tag")).toBe("noindex");
  });
});

describe("GET /robots.txt", () => {
  test("text/plain: short links may be crawled, the app's paths not", async () => {
    const res = await call("/robots.txt");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = await res.text();
    expect(text).toMatch(/^User-agent: \*\n/);
    for (const line of ["Disallow: /*/", "Disallow: /links$", "Disallow: /shorten$", "Disallow: /me$", "Allow: /"]) {
      expect(text.split("\n")).toContain(line);
    }
    const head = await call("/robots.txt", "HEAD");
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });
});

describe("bad input: 400 invalid_argument naming the field", () => {
  test.each([
    [{ redirectType: 303 }, /redirectType/],
    [{ redirectType: "301" }, /redirectType/],
    [{ fallbackUrl: "ftp://example.com/file" }, /^fallbackUrl must use http or https/],
    [{ fallbackUrl: "not a url" }, /^fallbackUrl must be an absolute URL/],
    [{ fallbackUrl: "javascript:alert(1)" }, /^fallbackUrl must use http or https/],
    [{ startsAt: "2030-01-02T00:00:00Z", expiresAt: "2030-01-01T00:00:00Z" }, /^startsAt must be before expiresAt/],
    [{ forwardQuery: "yes" }, /forwardQuery/],
    [{ allowIndexing: 1 }, /allowIndexing/],
  ])("POST /shorten with %j", async (options, message) => {
    const res = await tryShorten({ url: "https://example.com/", ...options });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(message) });
  });

  test("PATCH /links/:code refuses the same", async () => {
    const code = await shortenAs({ url: "https://example.com/patched" });
    for (const [body, message] of [
      [{ redirectType: 303 }, /redirectType/],
      [{ fallbackUrl: "ftp://example.com/" }, /^fallbackUrl must use http or https/],
    ] as const) {
      const res = await patch(code, body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(message) });
    }
    expect(await readLink(code)).toMatchObject({ redirectType: 302 });
  });

  test("POST /links/bulk: each item's options, checked on its own", async () => {
    const res = await client.post(
      "/links/bulk",
      { items: [{ url: "https://example.com/b1", redirectType: 301, forwardQuery: false }, { url: "https://example.com/b2", fallbackUrl: "mailto:x@example.com" }] },
      { token: links.token, from: client.nextAddress() },
    );
    expect(res.status).toBe(200);
    const { results } = (await res.json()) as { results: ({ code: string } | { error: { code: string; message: string } })[] };
    const made = results[0] as { code: string };
    expect(await readLink(made.code)).toMatchObject({ redirectType: 301, forwardQuery: false });
    expect((await browse(`/${made.code}?a=1`)).headers.get("location")).toBe("https://example.com/b1");
    expect(results[1]).toMatchObject({ error: { code: "invalid_argument", message: expect.stringMatching(/^fallbackUrl must use http or https/) } });
  });
});
