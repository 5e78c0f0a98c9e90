// What a password link hides, over real HTTP: its target and its audience, on every
// surface besides GET /:code (stats, analytics, the public daily report), from anyone
// without its password or its owner's sign-in; and what a report names at all.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { db as analyticsDb } from "../analytics/db.ts";
import { generateReport } from "../analytics/reports/stored-reports.ts";
import { db } from "../url/db.ts";
import { LinkClient, storedClicks } from "./support/link-client.ts";

vi.hoisted(() => {
  process.env.TRUST_PROXY = "on"; // read once, when the configs load: each test names its address
});

let server: TestServer;
const client = new LinkClient(() => server.url);
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const needsPassword = { code: "unauthenticated", message: "this link needs a password: send it in the X-Link-Password header", details: null };
const wrongPassword = { code: "unauthenticated", message: "wrong password", details: null };

interface Asked {
  password?: string;
  token?: string;
  from?: string;
}

/** GET `path` as a client would: its status and its body as text, to look for what must not be in it. */
async function read(path: string, { password, token, from = client.nextAddress() }: Asked = {}): Promise<{ status: number; text: string }> {
  const res = await client.request("GET", path, { from, token, headers: password === undefined ? {} : { "x-link-password": password } });
  return { status: res.status, text: await res.text() };
}

const browser = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";

/** A person's click with the right password, who came from `referrer`. */
async function clickFrom(code: string, password: string, referrer: string): Promise<void> {
  const headers = { "x-link-password": password, referer: referrer, "user-agent": browser };
  const res = await client.request("GET", `/${code}`, { from: client.nextAddress(), headers });
  expect(res.status).toBe(200);
}

describe("GET /:code/stats of a password link", () => {
  test("without the password: 401 as GET /:code answers, no target; a wrong one: 401; the right one: the stats", async () => {
    const code = await client.shorten({ url: "https://example.com/hidden-target", password: "open sesame" }, { from: client.nextAddress() });
    const none = await read(`/${code}/stats`);
    expect(none.status).toBe(401);
    expect(JSON.parse(none.text)).toEqual(needsPassword);
    const wrong = await read(`/${code}/stats`, { password: "guess" });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.text)).toEqual(wrongPassword);
    for (const answer of [none, wrong]) expect(answer.text).not.toContain("hidden-target");
    const right = await read(`/${code}/stats`, { password: "open sesame" });
    expect(right.status).toBe(200);
    expect(JSON.parse(right.text)).toEqual({ code, originalUrl: "https://example.com/hidden-target", clicks: 0, createdAt: expect.any(String) });
  });

  test("an owned one: its owner signed in sees the stats without the password; another account needs it", async () => {
    const owner = await client.signUp("stats-owner@example.com");
    const other = await client.signUp("stats-other@example.com");
    const code = await client.shorten({ url: "https://example.com/owners-secret", password: "pw" }, { token: owner, from: client.nextAddress() });
    const own = await read(`/${code}/stats`, { token: owner });
    expect(own.status).toBe(200);
    expect(JSON.parse(own.text)).toMatchObject({ code, originalUrl: "https://example.com/owners-secret" });
    const others = await read(`/${code}/stats`, { token: other });
    expect(others.status).toBe(401);
    expect(others.text).not.toContain("owners-secret");
    expect((await read(`/${code}/stats`, { token: other, password: "pw" })).status).toBe(200);
  });

  test("wrong passwords at the stats count towards the same limit as GET /:code", async () => {
    const code = await client.shorten({ url: "https://example.com/limited", password: "open sesame" }, { from: client.nextAddress() });
    const guesser = client.nextAddress();
    for (let i = 0; i < 4; i++) expect((await read(`/${code}/stats`, { password: `guess ${i}`, from: guesser })).status).toBe(401);
    const redirect = await client.request("GET", `/${code}`, { from: guesser, headers: { "x-link-password": "open sesame" } });
    expect(redirect.status).toBe(429);
  });

  test("a link without a password keeps its public stats, as docs/endpoints.md shapes them", async () => {
    const code = await client.shorten({ url: "https://example.com/open-stats" }, { from: client.nextAddress() });
    const answer = await read(`/${code}/stats`);
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual({ code, originalUrl: "https://example.com/open-stats", clicks: 0, createdAt: expect.any(String) });
  });
});

describe("GET /:code/analytics of a password link", () => {
  test("an anonymous one: without the password 401 and no audience; with it, the referrers", async () => {
    const code = await client.shorten({ url: "https://example.com/audience", password: "open sesame" }, { from: client.nextAddress() });
    await clickFrom(code, "open sesame", "https://private-forum.example/thread/1");
    expect(await storedClicks(code)).toBe(1);
    const none = await read(`/${code}/analytics`);
    expect(none.status).toBe(401);
    expect(JSON.parse(none.text)).toEqual(needsPassword);
    const wrong = await read(`/${code}/analytics`, { password: "guess" });
    expect(JSON.parse(wrong.text)).toEqual(wrongPassword);
    for (const answer of [none, wrong]) expect(answer.text).not.toMatch(/private-forum|audience/);
    const right = await read(`/${code}/analytics`, { password: "open sesame" });
    expect(right.status).toBe(200);
    expect(JSON.parse(right.text)).toMatchObject({ code, totals: { all: 1 }, referrers: { top: [{ value: "private-forum.example", humans: 1, bots: 0 }] } });
  });

  test("an owned one: its owner's alone, the password opening nothing", async () => {
    const owner = await client.signUp("analytics-owner@example.com");
    const code = await client.shorten({ url: "https://example.com/owned-audience", password: "pw" }, { token: owner, from: client.nextAddress() });
    expect((await read(`/${code}/analytics`, { token: owner })).status).toBe(200);
    const withPassword = await read(`/${code}/analytics`, { password: "pw" });
    expect(withPassword.status).toBe(401);
    expect(withPassword.text).not.toContain("owned-audience");
  });
});

describe("the public daily report", () => {
  const day = "2031-03-04";

  test("names only anonymous, live links without a password, and their referrers alone", async () => {
    const owner = await client.signUp("report-owner@example.com");
    const from = client.nextAddress();
    const links = {
      open: await client.shorten({ url: "https://example.com/report-open" }, { from }),
      password: await client.shorten({ url: "https://example.com/report-password", password: "pw" }, { from }),
      owned: await client.shorten({ url: "https://example.com/report-owned" }, { token: owner, from }),
      spent: await client.shorten({ url: "https://example.com/report-spent", maxClicks: 3_000_000 }, { from }),
    };
    // More clicks than any other link of this file, the password link's most of all.
    await db.exec`UPDATE urls SET clicks = 5000000 WHERE code = ${links.password}`;
    await db.exec`UPDATE urls SET clicks = 4000000 WHERE code = ${links.owned}`;
    await db.exec`UPDATE urls SET clicks = 3000000 WHERE code = ${links.spent}`;
    await db.exec`UPDATE urls SET clicks = 2000000 WHERE code = ${links.open}`;
    await db.exec`
      INSERT INTO link_clicks_hourly (code, hour, bot, referrer, country, browser, os, device, clicks) VALUES
        (${links.password}, ${`${day} 10:00Z`}, false, 'secret-intranet.example', 'GB', 'Chrome', 'Windows', 'desktop', 900),
        (${links.owned}, ${`${day} 10:00Z`}, false, 'owners-newsletter.example', 'GB', 'Chrome', 'Windows', 'desktop', 800),
        (${links.open}, ${`${day} 10:00Z`}, false, 'news.example', 'GB', 'Chrome', 'Windows', 'desktop', 7)`;
    await generateReport(day);

    const answer = await read(`/analytics/reports/${day}`);
    expect(answer.status).toBe(200);
    const report = JSON.parse(answer.text) as { topCodes: { code: string }[]; topReferrers: unknown[]; humanClicks: number };
    expect(report.topCodes[0]).toEqual({ code: links.open, originalUrl: "https://example.com/report-open", clicks: 2000000 });
    expect(answer.text).not.toMatch(/report-password|report-owned|report-spent|secret-intranet|owners-newsletter/);
    expect(report.topReferrers).toEqual([{ value: "news.example", humans: 7 }]);
    expect(report.humanClicks).toBe(900 + 800 + 7); // a count over every link names none
  });

  test("a report stored before, naming a password link and an owned one, is answered without them", async () => {
    const owner = await client.signUp("old-report-owner@example.com");
    const from = client.nextAddress();
    const open = await client.shorten({ url: "https://example.com/old-open" }, { from });
    const password = await client.shorten({ url: "https://example.com/old-password", password: "pw" }, { from });
    const owned = await client.shorten({ url: "https://example.com/old-owned" }, { token: owner, from });
    const named = [password, owned, open].map((code, i) => ({ code, originalUrl: `https://example.com/old-${["password", "owned", "open"][i]}`, clicks: 30 - i }));
    await analyticsDb.exec`
      INSERT INTO daily_reports (date, urls_created, total_clicks, top_codes, generated_at)
      VALUES ('2030-01-02', 3, 100, ${JSON.stringify(named)}::jsonb, now())`;
    const answer = await read("/analytics/reports/2030-01-02");
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).topCodes).toEqual([{ code: open, originalUrl: "https://example.com/old-open", clicks: 28 }]);
    expect(answer.text).not.toMatch(/old-password|old-owned/);
  });
});
