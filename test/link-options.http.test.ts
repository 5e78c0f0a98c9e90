// POST /shorten's options over real HTTP (aliases, end dates, click budgets, titles), and
// what GET /:code and GET /:code/stats answer for links that no longer redirect.
import { describe, expect, test, vi } from "vitest";
import { db } from "../url/db.ts";
import { urlCache } from "../url/link-cache/cache.ts";
import { browserAccept, expectPageHeaders, storedClicks } from "./support/link-client.ts";
import { linkServer } from "./support/link-server.ts";

vi.hoisted(() => {
  process.env.TRUST_PROXY = "on"; // read once, when the configs load: each test names its address
});

const { client, shorten: shortenAs, tryShorten } = linkServer("options@example.com");
const get = (code: string, headers: Record<string, string> = {}) => client.request("GET", `/${code}`, { headers });

describe("aliases", () => {
  test("an alias is the code: stored as given, and it redirects", async () => {
    const res = await tryShorten({ url: "https://example.com/alias", alias: "Spring-Sale_2030" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ code: "Spring-Sale_2030", shortUrl: "https://sho.rt/Spring-Sale_2030" });
    expect(await (await get("Spring-Sale_2030")).json()).toEqual({ url: "https://example.com/alias" });
  });

  test("choosing one needs a signed-in user: 401 unauthenticated", async () => {
    const res = await tryShorten({ url: "https://example.com/", alias: "anonymous-alias" }, false);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "unauthenticated", message: "sign in to choose an alias" });
  });

  test.each(["orders", "Shorten", "_app", "LINKS", "users", "healthz"])("%s, a path of the service's own, is 400 invalid_argument", async (alias) => {
    const res = await tryShorten({ url: "https://example.com/", alias });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(/is reserved/) });
  });

  test.each(["ab", "has space", "dot.ted", "x".repeat(65), "ümlaut"])("%j is not an alias's shape: 400", async (alias) => {
    const res = await tryShorten({ url: "https://example.com/", alias });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(/^alias must be 3 to 64/) });
  });

  test("taken in another case: 409 already_exists", async () => {
    await shortenAs({ url: "https://example.com/1", alias: "MyLink" });
    const res = await tryShorten({ url: "https://example.com/2", alias: "mylink" });
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ code: "already_exists", message: 'alias "mylink" is taken', details: null });
  });

  test("a random code is taken too, in any case", async () => {
    const random = await shortenAs({ url: "https://example.com/random" });
    const res = await tryShorten({ url: "https://example.com/clash", alias: random.toUpperCase() });
    expect(res.status).toBe(409);
  });

  test("a deleted link's alias stays taken: its row stays", async () => {
    await shortenAs({ url: "https://example.com/old", alias: "gone-alias" });
    await db.exec`UPDATE urls SET deleted_at = now() WHERE code = 'gone-alias'`;
    expect((await tryShorten({ url: "https://example.com/new", alias: "gone-alias" })).status).toBe(409);
  });

  test("two requests for one alias at once: one link, one 409", async () => {
    const statuses = await Promise.all([1, 2, 3].map((i) => tryShorten({ url: `https://example.com/race/${i}`, alias: "race-alias" })));
    expect(statuses.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  });
});

describe("options are stored", () => {
  test("title, description, end date and click budget land in the row; the answer is as ever", async () => {
    const expiresAt = new Date(Date.now() + 3_600_000);
    const res = await tryShorten({ url: "https://example.com/opts", title: "A title", description: "Some words", expiresAt, maxClicks: 7 });
    const body = (await res.json()) as { code: string };
    expect(Object.keys(body).sort()).toEqual(["code", "shortUrl"]);
    const row = await db.queryRow<{ title: string; description: string; expires_at: Date; max_clicks: number; password_hash: string | null }>`
      SELECT title, description, expires_at, max_clicks, password_hash FROM urls WHERE code = ${body.code}`;
    expect(row).toEqual({ title: "A title", description: "Some words", expires_at: expiresAt, max_clicks: 7, password_hash: null });
  });

  test.each([
    [{ expiresAt: "2001-01-01T00:00:00Z" }, /expiresAt must be in the future/],
    [{ expiresAt: "next tuesday" }, /expiresAt/],
    [{ maxClicks: 0 }, /maxClicks must be a whole number from 1/],
    [{ maxClicks: 1.5 }, /maxClicks must be a whole number/],
    [{ password: "" }, /password must be 1 to 128/],
    [{ title: "t".repeat(201) }, /title must be at most 200/],
    [{ description: "d".repeat(1001) }, /description must be at most 1000/],
  ])("%j is 400 invalid_argument", async (options, message) => {
    const res = await tryShorten({ url: "https://example.com/", ...options });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(message) });
  });

  test("a plain link stays plain in the cache: nothing to check on the hot path", async () => {
    const code = await shortenAs({ url: "https://example.com/plain" });
    expect((await get(code)).status).toBe(200);
    expect(urlCache.get(code)).toMatchObject({ url: "https://example.com/plain", rules: undefined });
  });
});

describe("an end date", () => {
  test("past it, 404 link expired, a page for a browser, and no click counted", async () => {
    const code = await shortenAs({ url: "https://example.com/soon", expiresAt: new Date(Date.now() + 1500) });
    expect((await get(code)).status).toBe(200); // cached now, with its end date
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const res = await get(code);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: "not_found", message: "link expired", details: null });
    const page = await get(code, { accept: browserAccept });
    expect(page.status).toBe(404);
    expectPageHeaders(page);
    const html = await page.text();
    expect(html).toContain("<h1>This link has expired</h1>");
    expect(html).not.toMatch(/<script/i);
    expect(await storedClicks(code)).toBe(1);
    // Expired links keep their stats.
    expect(await (await client.request("GET", `/${code}/stats`)).json()).toMatchObject({ code, clicks: 1 });
  });
});

describe("a click budget", () => {
  test("maxClicks 2: the third GET is 404, and stats show 2", async () => {
    const code = await shortenAs({ url: "https://example.com/twice", maxClicks: 2 });
    expect((await client.request("HEAD", `/${code}`)).status).toBe(200); // HEAD spends nothing
    expect((await get(code)).status).toBe(200);
    expect((await get(code, { accept: browserAccept })).status).toBe(302);
    const third = await get(code);
    expect(third.status).toBe(404);
    expect(await third.json()).toEqual({ code: "not_found", message: "link reached its maximum number of clicks", details: null });
    expect(await (await client.request("GET", `/${code}/stats`)).json()).toMatchObject({ clicks: 2 });
  });

  test("exact under concurrency: 40 GETs of a 5-click link, 5 redirect", async () => {
    const code = await shortenAs({ url: "https://example.com/five", maxClicks: 5 });
    const statuses = await Promise.all(Array.from({ length: 40 }, () => get(code).then((r) => r.status)));
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 404)).toHaveLength(35);
    expect(await storedClicks(code)).toBe(5);
  });

  test("a budget raised in the database is heard at once (the change evicts the code)", async () => {
    const code = await shortenAs({ url: "https://example.com/raise", maxClicks: 1 });
    expect((await get(code)).status).toBe(200);
    expect((await get(code)).status).toBe(404);
    await db.exec`UPDATE urls SET max_clicks = 2 WHERE code = ${code}`;
    await expect.poll(async () => (await get(code)).status).toBe(200);
  });
});

describe("deleted and disabled links", () => {
  test.each([
    ["deleted_at = now()", "link deleted"],
    ["disabled_at = now(), disabled_reason = 'abuse'", "link disabled for abuse"],
    ["disabled_at = now(), disabled_reason = 'host'", "link disabled for abuse"],
    ["disabled_at = now(), disabled_reason = 'account'", "link disabled"],
  ])("%s: GET is 404 %j (the cached link evicted), stats 404 url not found, no click", async (change, message) => {
    const code = await shortenAs({ url: "https://example.com/to-go" });
    expect((await get(code)).status).toBe(200);
    await db.rawExec(`UPDATE urls SET ${change} WHERE code = $1`, code);
    // Waited for with HEAD, which counts no click: a GET answered from the cache before the
    // eviction arrives would count one.
    await expect.poll(async () => (await client.request("HEAD", `/${code}`)).status).toBe(404);
    expect(await (await get(code)).json()).toEqual({ code: "not_found", message, details: null });
    const page = await get(code, { accept: browserAccept });
    expect(page.status).toBe(404);
    expectPageHeaders(page);
    const stats = await client.request("GET", `/${code}/stats`);
    expect(stats.status).toBe(404);
    expect(await stats.json()).toEqual({ code: "not_found", message: "url not found", details: null });
    expect(await storedClicks(code)).toBe(1);
  });

  test("a gone link is cached as gone: asking again costs no query", async () => {
    const code = await shortenAs({ url: "https://example.com/cached-gone" });
    await db.exec`UPDATE urls SET deleted_at = now() WHERE code = ${code}`;
    // A lookup while the update's eviction is still on its way caches nothing: the next one does.
    await expect
      .poll(async () => {
        expect((await get(code)).status).toBe(404);
        return urlCache.get(code)?.rules?.gone?.message;
      })
      .toBe("link deleted");
  });
});
