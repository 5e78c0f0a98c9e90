// The owner's management of links over real HTTP: GET /links (search, status filter,
// sort, pages), GET, PATCH and DELETE /links/:code. Options POST /shorten cannot set yet
// are set with SQL.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { apiCaller, signUpAndLogIn } from "./support/api-client.ts";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { clickCounter } from "../url/click-counting/instance.ts";
import { db } from "../url/db.ts";
import { evictionChannel } from "../url/link-cache/evictions.ts";
import type { Subscriber } from "../pg-notify/listener.ts";
import { urlNotifications } from "../url/link-cache/notifications.ts";
import { storeUnderFreshCode } from "../links/shortening/fresh-code.ts";
import { passwords } from "../passwords/passwords.ts";

vi.hoisted(() => {
  process.env.DENIED_TARGET_HOSTS = "evil.example"; // read once, when limits/links.ts loads
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const call = apiCaller(() => server.url);

interface Link {
  code: string;
  originalUrl: string;
  clicks: number;
  status: string;
  [field: string]: unknown;
}

let accounts = 0;
async function signedIn(): Promise<string> {
  return (await signUpAndLogIn(call, `links${++accounts}@example.com`)).token;
}

async function shorten(token: string, url: string): Promise<string> {
  const res = await call("POST", "/shorten", { token, body: { url } });
  expect(res.status).toBe(200);
  return res.body.code as string;
}

async function list(token: string, query = ""): Promise<{ links: Link[]; nextCursor?: string }> {
  const res = await call("GET", `/links${query}`, { token });
  expect(res).toMatchObject({ status: 200 });
  return res.body as { links: Link[]; nextCursor?: string };
}

const codesOf = (links: Link[]) => links.map((l) => l.code);

/** Every page of a list, following nextCursor. */
async function allPages(token: string, query: string): Promise<string[]> {
  const codes: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(token, `${query}${cursor ? `&cursor=${cursor}` : ""}`);
    codes.push(...codesOf(page.links));
    cursor = page.nextCursor;
  } while (cursor);
  return codes;
}

describe("GET /links", () => {
  test("the caller's links, newest first, with every field; nobody else's", async () => {
    const [ada, bob] = [await signedIn(), await signedIn()];
    const first = await shorten(ada, "https://example.com/first");
    const second = await shorten(ada, "https://example.com/second");
    await shorten(bob, "https://example.com/bobs");
    const { links, nextCursor } = await list(ada);
    expect(nextCursor).toBeUndefined();
    expect(links).toEqual([
      { code: second, shortUrl: `https://sho.rt/${second}`, originalUrl: "https://example.com/second", clicks: 0, createdAt: expect.any(String), hasPassword: false, status: "active", tags: [], redirectType: 302, forwardQuery: true, allowIndexing: false, rules: [], recentClicks: Array<number>(14).fill(0) },
      expect.objectContaining({ code: first }),
    ]);
  });

  test("q finds a substring of the code, the URL or the title in any case; % and _ are plain characters", async () => {
    const ada = await signedIn();
    const byUrl = await shorten(ada, "https://example.com/Spring-SALE");
    const byTitle = await shorten(ada, "https://example.com/plain");
    const percent = await shorten(ada, "https://example.com/100%25_off");
    const lookalike = await shorten(ada, "https://example.com/100x25-off"); // what %25_ matches as a pattern
    await db.exec`UPDATE urls SET title = 'Summer Sale' WHERE code = ${byTitle}`;
    expect(codesOf((await list(ada, "?q=sale")).links)).toEqual([byTitle, byUrl]);
    expect(codesOf((await list(ada, `?q=${byUrl.toUpperCase()}`)).links)).toEqual([byUrl]);
    expect(codesOf((await list(ada, `?q=${encodeURIComponent("%25_")}`)).links)).toEqual([percent]);
    expect(codesOf((await list(ada, "?q=_")).links)).toEqual([percent]);
    expect(codesOf((await list(ada, "?q=100")).links)).toEqual([lookalike, percent]);
    expect((await list(ada, "?q=nowhere")).links).toEqual([]);
  });

  test("q with a line break matches within a title only, never across the code, URL and title", async () => {
    const ada = await signedIn();
    const plain = await shorten(ada, "https://example.com/plain");
    const twoLines = await shorten(ada, "https://example.com/notes");
    await db.exec`UPDATE urls SET title = 'Summer Sale' WHERE code = ${plain}`;
    await db.exec`UPDATE urls SET title = ${"Line one\nLine two"} WHERE code = ${twoLines}`;
    // The search reads the three joined by line breaks (url migration 19's index): these span two of them.
    expect((await list(ada, `?q=${encodeURIComponent("plain\nSummer")}`)).links).toEqual([]);
    expect((await list(ada, `?q=${encodeURIComponent(`${plain}\nhttps`)}`)).links).toEqual([]);
    expect(codesOf((await list(ada, `?q=${encodeURIComponent("ONE\nline")}`)).links)).toEqual([twoLines]);
  });

  test("a search is answered from a trigram index that holds each link's workspace (url migration 19)", async () => {
    const indexes = await db.queryAll<{ indexname: string; indexdef: string }>`
      SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'urls' AND indexdef LIKE '%USING gin%'`;
    expect(indexes).toEqual([{ indexname: "urls_workspace_search_idx", indexdef: expect.stringMatching(/USING gin \(workspace_id, .*gin_trgm_ops\)/s) }]);
    // With sequential scans priced out, as a million links price them, a search reads it.
    await using tx = await db.begin();
    await tx.exec`SET LOCAL enable_seqscan = off`;
    const plan = await tx.queryAll<{ "QUERY PLAN": string }>`
      EXPLAIN SELECT id FROM urls WHERE (code || E'\n' || original_url || E'\n' || coalesce(title, '')) ILIKE '%sale%'`;
    expect(plan.map((r) => r["QUERY PLAN"]).join("\n")).toContain("urls_workspace_search_idx");
  });

  test("status: active, inactive (expired, exhausted, disabled) or all; deleted links never", async () => {
    const ada = await signedIn();
    const codes: Record<string, string> = {};
    for (const name of ["active", "expired", "exhausted", "disabled", "deleted", "budgetLeft"]) codes[name] = await shorten(ada, `https://example.com/${name}`);
    await db.exec`UPDATE urls SET expires_at = now() - interval '1 second' WHERE code = ${codes.expired}`;
    await db.exec`UPDATE urls SET max_clicks = 2, clicks = 2 WHERE code = ${codes.exhausted}`;
    await db.exec`UPDATE urls SET max_clicks = 2, clicks = 1, expires_at = now() + interval '1 day' WHERE code = ${codes.budgetLeft}`;
    await db.exec`UPDATE urls SET disabled_at = now(), disabled_reason = 'abuse' WHERE code = ${codes.disabled}`;
    expect((await call("DELETE", `/links/${codes.deleted}`, { token: ada })).status).toBe(200);

    const statuses = async (query: string) => Object.fromEntries((await list(ada, query)).links.map((l) => [l.code, l.status]));
    const everything = {
      [codes.budgetLeft!]: "active",
      [codes.disabled!]: "disabled",
      [codes.exhausted!]: "exhausted",
      [codes.expired!]: "expired",
      [codes.active!]: "active",
    };
    expect(await statuses("")).toEqual(everything);
    expect(await statuses("?status=all")).toEqual(everything);
    expect(await statuses("?status=active")).toEqual({ [codes.budgetLeft!]: "active", [codes.active!]: "active" });
    expect(await statuses("?status=inactive")).toEqual({ [codes.disabled!]: "disabled", [codes.exhausted!]: "exhausted", [codes.expired!]: "expired" });
  });

  test("sort=clicks: most clicked first, ties newest first; clicks are exact, pending ones too", async () => {
    const ada = await signedIn();
    const [a, b, c, d] = [await shorten(ada, "https://example.com/a"), await shorten(ada, "https://example.com/b"), await shorten(ada, "https://example.com/c"), await shorten(ada, "https://example.com/d")];
    await db.exec`UPDATE urls SET clicks = 5 WHERE code = ${a}`;
    await db.exec`UPDATE urls SET clicks = 3 WHERE code IN (${b}, ${c})`;
    expect((await fetch(`${server.url}/${d}`)).status).toBe(200); // counted, perhaps not yet written
    const { links } = await list(ada, "?sort=clicks");
    expect(links.map((l) => [l.code, l.clicks])).toEqual([[a, 5], [c, 3], [b, 3], [d, 1]]);
  });

  test("sort=clicks follows clicks exactly across orders of magnitude, as the flush and edits change them (url migration 21)", async () => {
    const ada = await signedIn();
    const codes: string[] = [];
    for (let i = 0; i < 30; i++) codes.push(await shorten(ada, `https://example.com/magnitude/${i}`));
    const byClicks = async () =>
      (await db.queryAll<{ code: string }>`SELECT code FROM urls WHERE code = ANY(${codes}::text[]) ORDER BY clicks DESC, id DESC`).map((r) => r.code);
    // Counts on both sides of powers of two, and ties.
    await db.exec`UPDATE urls SET clicks = (ARRAY[0, 1, 2, 3, 4, 7, 8, 15, 16, 255, 256, 1000, 1023, 1024, 3])[id % 15 + 1] WHERE code = ANY(${codes}::text[])`;
    expect(await allPages(ada, "?sort=clicks&limit=4")).toEqual(await byClicks());
    // Clicks counted by lookups and written by the flush move links up a magnitude or not.
    for (const [code, n] of [[codes[0], 1], [codes[1], 2], [codes[2], 5]] as const) {
      for (let i = 0; i < n; i++) expect((await fetch(`${server.url}/${code}`)).status).toBe(200);
    }
    await clickCounter.flush();
    await db.exec`UPDATE urls SET clicks = clicks + 250 WHERE code = ${codes[3]}`;
    expect(await allPages(ada, "?sort=clicks&limit=4")).toEqual(await byClicks());
    expect(await allPages(ada, "?sort=clicks&limit=100")).toEqual(await byClicks());
    const stale = await db.queryAll`
      SELECT u.code FROM urls u JOIN link_click_order o ON o.link_id = u.id WHERE u.code = ANY(${codes}::text[]) AND o.magnitude <> click_magnitude(u.clicks)`;
    expect(stale).toEqual([]);
  });

  test.each(["newest", "clicks"])("pages of sort=%s, joined, are the whole list once", async (sort) => {
    const ada = await signedIn();
    const codes: string[] = [];
    for (let i = 0; i < 7; i++) codes.push(await shorten(ada, `https://example.com/page/${i}`));
    await db.exec`UPDATE urls SET clicks = (ARRAY[4, 0, 4, 9, 1, 4, 0])[id % 7 + 1] WHERE code = ANY(${codes}::text[])`;
    const whole = codesOf((await list(ada, `?sort=${sort}&limit=100`)).links);
    expect(whole).toHaveLength(7);
    const first = await list(ada, `?sort=${sort}&limit=3`);
    expect(first.links).toHaveLength(3);
    expect(first.nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await allPages(ada, `?sort=${sort}&limit=3`)).toEqual(whole);
    expect(await allPages(ada, `?sort=${sort}&limit=1`)).toEqual(whole);
    expect((await list(ada, `?sort=${sort}&limit=7`)).nextCursor).toBeUndefined();
  });

  test.each([
    ["?cursor=garbage", /nextCursor of a previous page/],
    ["?cursor=a!b", /nextCursor of a previous page/],
    [`?cursor=${Buffer.from('{"s":"n","i":0}').toString("base64url")}`, /nextCursor of a previous page/],
    [`?cursor=${Buffer.from('{"s":"n","i":1,"x":1}').toString("base64url")}`, /nextCursor of a previous page/],
    [`?sort=clicks&cursor=${Buffer.from('{"s":"n","i":5}').toString("base64url")}`, /sorted by newest, not by clicks/],
    ["?status=gone", /status/],
    ["?sort=oldest", /sort/],
    ["?limit=0", /limit/],
    ["?limit=101", /limit/],
  ])("%s is 400 invalid_argument", async (query, message) => {
    const res = await call("GET", `/links${query}`, { token: await signedIn() });
    expect(res).toMatchObject({ status: 400, body: { code: "invalid_argument", message: expect.stringMatching(message) } });
  });

  test("without a token it is 401", async () => {
    expect((await call("GET", "/links")).status).toBe(401);
  });
});

describe("GET /links/:code", () => {
  test("the owner's link with its exact clicks; another user's is 403, an unknown code 404", async () => {
    const [ada, bob] = [await signedIn(), await signedIn()];
    const code = await shorten(ada, "https://example.com/one");
    expect((await fetch(`${server.url}/${code}`)).status).toBe(200);
    const got = await call("GET", `/links/${code}`, { token: ada });
    expect(got).toEqual({
      status: 200,
      body: { code, shortUrl: `https://sho.rt/${code}`, originalUrl: "https://example.com/one", clicks: 1, createdAt: expect.any(String), hasPassword: false, status: "active", tags: [], redirectType: 302, forwardQuery: true, allowIndexing: false, rules: [] },
    });
    expect(await call("GET", `/links/${code}`, { token: bob })).toMatchObject({ status: 403, body: { code: "permission_denied" } });
    expect(await call("GET", "/links/zzzzzz", { token: ada })).toMatchObject({ status: 404, body: { code: "not_found", message: "url not found" } });
  });

  test("an anonymous link is nobody's: 403", async () => {
    const res = await fetch(`${server.url}/shorten`, { method: "POST", body: JSON.stringify({ url: "https://example.com/anon" }) });
    const { code } = (await res.json()) as { code: string };
    expect((await call("GET", `/links/${code}`, { token: await signedIn() })).status).toBe(403);
  });
});

describe("PATCH /links/:code", () => {
  const patch = (token: string, code: string, body: unknown) => call("PATCH", `/links/${code}`, { token, body });

  test("url: normalised, answered by GET /:code at once", async () => {
    const ada = await signedIn();
    const code = await shorten(ada, "https://example.com/old");
    expect(await (await fetch(`${server.url}/${code}`)).json()).toEqual({ url: "https://example.com/old" }); // cached now
    const res = await patch(ada, code, { url: "HTTPS://Example.com/new" });
    expect(res).toMatchObject({ status: 200, body: { code, originalUrl: "https://example.com/new", clicks: 1, updatedAt: expect.any(String) } });
    expect(await (await fetch(`${server.url}/${code}`)).json()).toEqual({ url: "https://example.com/new" });
  });

  test("url and delete: the instance that made the change answers it from the next request, before any notification", async () => {
    const ada = await signedIn();
    const code = await shorten(ada, "https://example.com/read-your-writes");
    const lookUp = async () => {
      const res = await fetch(`${server.url}/${code}`);
      return `${res.status} ${((await res.json()) as { url?: string }).url ?? ""}`;
    };
    expect(await lookUp()).toBe("200 https://example.com/read-your-writes"); // cached now
    // The notification of a change reaches this instance's cache a moment after the commit,
    // and can come after the answer: ignored here, so only the change's own eviction can
    // make the next answer right. (channels is private; read for this test only.)
    const channels = (urlNotifications as unknown as { channels: ReadonlyMap<string, Subscriber> }).channels;
    const ignored = vi.spyOn(channels.get(evictionChannel)!, "notified").mockImplementation(() => {});
    try {
      expect((await patch(ada, code, { url: "https://example.com/read-your-writes-2" })).status).toBe(200);
      expect(await lookUp()).toBe("200 https://example.com/read-your-writes-2");
      expect(await lookUp()).toBe("200 https://example.com/read-your-writes-2"); // cached again
      expect((await call("DELETE", `/links/${code}`, { token: ada })).status).toBe(200);
      expect(await lookUp()).toBe("404 ");
    } finally {
      ignored.mockRestore();
    }
  });

  test("url: the public stats show the new URL at once, though they were read before", async () => {
    const ada = await signedIn();
    const code = await shorten(ada, "https://example.com/stats-before");
    const statsUrl = async () => ((await (await fetch(`${server.url}/${code}/stats`)).json()) as { originalUrl: string }).originalUrl;
    expect(await statsUrl()).toBe("https://example.com/stats-before");
    expect((await patch(ada, code, { url: "https://example.com/stats-after" })).status).toBe(200);
    expect(await statsUrl()).toBe("https://example.com/stats-after");
  });

  test("expiresAt, maxClicks, title and description are set, and cleared by null", async () => {
    const ada = await signedIn();
    const code = await shorten(ada, "https://example.com/options");
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const set = await patch(ada, code, { expiresAt, maxClicks: 10, title: "Launch", description: "The launch page" });
    expect(set).toMatchObject({ status: 200, body: { expiresAt, maxClicks: 10, title: "Launch", description: "The launch page", status: "active" } });
    expect(await call("GET", `/links/${code}`, { token: ada })).toMatchObject({ body: set.body });

    const titleOnly = await patch(ada, code, { title: "Relaunch" });
    expect(titleOnly.body).toMatchObject({ expiresAt, maxClicks: 10, title: "Relaunch", description: "The launch page" });

    const cleared = await patch(ada, code, { expiresAt: null, maxClicks: null, title: null, description: null });
    expect(cleared.status).toBe(200);
    for (const field of ["expiresAt", "maxClicks", "title", "description"]) expect(cleared.body).not.toHaveProperty(field);
  });

  test("maxClicks at or below the clicks so far makes the link exhausted", async () => {
    const ada = await signedIn();
    const code = await shorten(ada, "https://example.com/budget");
    await fetch(`${server.url}/${code}`);
    expect((await patch(ada, code, { maxClicks: 1 })).body).toMatchObject({ clicks: 1, maxClicks: 1, status: "exhausted" });
  });

  test("password: stored hashed (never answered), cleared by null", async () => {
    const ada = await signedIn();
    const code = await shorten(ada, "https://example.com/secret");
    const set = await patch(ada, code, { password: "open sesame" });
    expect(set).toMatchObject({ status: 200, body: { hasPassword: true } });
    expect(JSON.stringify(set.body)).not.toMatch(/sesame|scrypt/);
    const { password_hash } = (await db.queryRow<{ password_hash: string }>`SELECT password_hash FROM urls WHERE code = ${code}`)!;
    expect(password_hash).not.toContain("open sesame");
    expect(await passwords.verify("open sesame", password_hash)).toBe(true);
    expect((await patch(ada, code, { password: null })).body).toMatchObject({ hasPassword: false });
    expect((await db.queryRow`SELECT password_hash FROM urls WHERE code = ${code}`)!.password_hash).toBeNull();
  });

  test.each([
    [{}, /nothing to change/],
    [{ url: "javascript:alert(1)" }, /http or https/],
    [{ url: "https://sho.rt/abc" }, /this service/],
    [{ url: "https://www.evil.example/x" }, /evil\.example/],
    [{ expiresAt: "2020-01-01T00:00:00Z" }, /expiresAt must be in the future/],
    [{ expiresAt: "soon" }, /expiresAt/],
    [{ maxClicks: 0 }, /maxClicks must be a whole number/],
    [{ maxClicks: 1.5 }, /maxClicks must be a whole number/],
    [{ password: "" }, /password must be 1 to 128/],
    [{ title: "t".repeat(201) }, /title must be at most 200/],
    [{ description: "d".repeat(1001) }, /description must be at most 1000/],
    [{ url: null }, /url/],
  ])("%j is 400 invalid_argument and changes nothing", async (body, message) => {
    const ada = await signedIn();
    const code = await shorten(ada, "https://example.com/unchanged");
    expect(await patch(ada, code, body)).toMatchObject({ status: 400, body: { code: "invalid_argument", message: expect.stringMatching(message) } });
    const row = await db.queryRow`SELECT original_url, updated_at FROM urls WHERE code = ${code}`;
    expect(row).toEqual({ original_url: "https://example.com/unchanged", updated_at: null });
  });

  test("another user's link is 403 and unchanged; an unknown code 404", async () => {
    const [ada, bob] = [await signedIn(), await signedIn()];
    const code = await shorten(ada, "https://example.com/adas");
    expect(await patch(bob, code, { url: "https://example.com/bobs" })).toMatchObject({ status: 403, body: { code: "permission_denied" } });
    expect((await db.queryRow`SELECT original_url FROM urls WHERE code = ${code}`)!.original_url).toBe("https://example.com/adas");
    expect(await patch(ada, "zzzzzz", { title: "x" })).toMatchObject({ status: 404, body: { message: "url not found" } });
  });

  test("a deleted link is 404; one a moderator disabled is 400 failed_precondition", async () => {
    const ada = await signedIn();
    const deleted = await shorten(ada, "https://example.com/deleted");
    const disabled = await shorten(ada, "https://example.com/disabled");
    await call("DELETE", `/links/${deleted}`, { token: ada });
    await db.exec`UPDATE urls SET disabled_at = now(), disabled_reason = 'abuse' WHERE code = ${disabled}`;
    expect(await patch(ada, deleted, { title: "x" })).toMatchObject({ status: 404, body: { code: "not_found", message: "link deleted" } });
    expect(await patch(ada, disabled, { url: "https://example.com/elsewhere" })).toMatchObject({
      status: 400,
      body: { code: "failed_precondition", message: "link disabled by a moderator" },
    });
    expect((await db.queryRow`SELECT original_url FROM urls WHERE code = ${disabled}`)!.original_url).toBe("https://example.com/disabled");
  });
});

describe("DELETE /links/:code", () => {
  test("marks the link deleted and retires its code; it stays readable by its owner, with its clicks", async () => {
    const ada = await signedIn();
    const code = await shorten(ada, "https://example.com/gone");
    expect((await fetch(`${server.url}/${code}`)).status).toBe(200); // a click this instance may not have written yet
    const res = await fetch(`${server.url}/links/${code}`, { method: "DELETE", headers: { authorization: `Bearer ${ada}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("");
    const row = await db.queryRow`SELECT deleted_at FROM urls WHERE code = ${code}`;
    expect(row!.deleted_at).toBeInstanceOf(Date);
    expect(await db.queryRow`SELECT code FROM retired_codes WHERE code = ${code}`).toEqual({ code });

    await clickCounter.flush(); // the click answered before the delete is still stored
    expect((await db.queryRow`SELECT clicks FROM urls WHERE code = ${code}`)!.clicks).toBe(1);
    expect(await call("GET", `/links/${code}`, { token: ada })).toMatchObject({ status: 200, body: { code, clicks: 1, status: "deleted" } });
    expect(codesOf((await list(ada)).links)).not.toContain(code);
  });

  test("twice is 404; another user's link is 403 and stays", async () => {
    const [ada, bob] = [await signedIn(), await signedIn()];
    const code = await shorten(ada, "https://example.com/twice");
    expect(await call("DELETE", `/links/${code}`, { token: bob })).toMatchObject({ status: 403, body: { code: "permission_denied" } });
    expect((await db.queryRow`SELECT deleted_at FROM urls WHERE code = ${code}`)!.deleted_at).toBeNull();
    expect((await call("DELETE", `/links/${code}`, { token: ada })).status).toBe(200);
    expect(await call("DELETE", `/links/${code}`, { token: ada })).toMatchObject({ status: 404, body: { code: "not_found", message: "link deleted" } });
    expect(await call("DELETE", "/links/zzzzzz", { token: ada })).toMatchObject({ status: 404, body: { message: "url not found" } });
  });

  test("a link a moderator disabled may still be deleted", async () => {
    const ada = await signedIn();
    const code = await shorten(ada, "https://example.com/disabled-then-deleted");
    await db.exec`UPDATE urls SET disabled_at = now(), disabled_reason = 'abuse' WHERE code = ${code}`;
    expect((await call("DELETE", `/links/${code}`, { token: ada })).status).toBe(200);
    expect((await call("GET", `/links/${code}`, { token: ada })).body).toMatchObject({ status: "deleted" });
  });

  test("a deleted link's code is never drawn again, even once its row is gone", async () => {
    const ada = await signedIn();
    const code = await shorten(ada, "https://example.com/retired");
    await call("DELETE", `/links/${code}`, { token: ada });
    const drawn = [code, "rtrd01"];
    expect(await storeUnderFreshCode("https://example.com/new-owner", () => drawn.shift()!)).toBe("rtrd01");

    await db.exec`DELETE FROM urls WHERE code = ${code}`; // as the cleanup job may
    const again = [code, "rtrd02"];
    expect(await storeUnderFreshCode("https://example.com/new-owner", () => again.shift()!)).toBe("rtrd02");
    expect(await db.queryRow`SELECT 1 AS one FROM urls WHERE code = ${code}`).toBeNull();
  });
});
