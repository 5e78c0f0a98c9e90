// Click analytics stay aggregates whatever visitors send, over real HTTP: many distinct
// referrers and bot agents on one link leave a bounded number of rows an hour, exact in
// totals; reads are limited per client address and cannot starve the pool that shortens.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { otherBot } from "../visitors/bot-names.ts";
import { rowsPerHour, valuesPerHour } from "../url/click-analytics/store.ts";
import { clickCounter } from "../url/click-counting/instance.ts";
import { db } from "../url/db.ts";

vi.hoisted(() => {
  // Read once, when the configs load: each request names its address.
  process.env.TRUST_PROXY = "on";
  process.env.ANALYTICS_READ_LIMIT_PER_ADDRESS = "5";
  process.env.ANALYTICS_READ_TIMEOUT_MS = "1000";
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface Answer {
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
}

/** One request from `from` (TRUST_PROXY=on: X-Forwarded-For names the client), with its Retry-After. */
async function send(method: string, path: string, from: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { "x-forwarded-for": from, ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function shorten(from: string): Promise<string> {
  const res = await send("POST", "/shorten", from, { url: "https://example.com/popular" });
  expect(res.status).toBe(200);
  return res.body.code as string;
}

/** One click with that agent and referrer, over node:http (fetch would send an agent of its own). */
function click(code: string, agent: string, referer: string, from: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}/${code}`, { headers: { "user-agent": agent, referer, "x-forwarded-for": from } }, (res) => {
      res.resume().on("end", () => resolve(res.statusCode!));
    });
    req.on("error", reject).end();
  });
}

/** `n` clicks, `atOnce` in flight, click i made by `each(i)`. */
async function clicks(n: number, atOnce: number, each: (i: number) => Promise<number>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < n) expect(await each(next++)).toBe(200);
  };
  await Promise.all(Array.from({ length: atOnce }, worker));
}

// Digits only: random letters spelled a known bot's name now and then ("wget" in a suffix).
const random = () => String(Math.floor(Math.random() * 1e9));

interface Breakdown {
  top: { value: string; humans: number; bots: number }[];
  other: { humans: number; bots: number };
}
const sum = (b: Breakdown) => b.top.reduce((n, v) => n + v.humans + v.bots, 0) + b.other.humans + b.other.bots;

describe("a link's analytics are bounded whatever its visitors send", () => {
  test(`clicks with ${12 * valuesPerHour} distinct referrers and bot agents leave at most ${valuesPerHour} referrers and ${rowsPerHour + 2} rows an hour; totals exact, the rest other`, async () => {
    const code = await shorten("198.51.100.1");
    const n = 12 * valuesPerHour;
    // Bot agents with random suffixes: curl's, and a bot no list names.
    await clicks(n, 16, (i) => click(code, i % 2 === 0 ? `curlx${random()}` : `Zorgbot-${random()}/1.0`, `https://${random()}.example/p`, "198.51.100.1"));
    await clickCounter.flush();

    const perHour = await db.queryAll<{ rows: number; referrers: number; clicks: number }>`
      SELECT count(*)::int AS rows, count(DISTINCT referrer) FILTER (WHERE referrer <> '')::int AS referrers, sum(clicks)::int AS clicks
      FROM link_clicks_hourly WHERE code = ${code} GROUP BY hour`;
    for (const h of perHour) {
      expect(h.referrers).toBeLessThanOrEqual(valuesPerHour);
      expect(h.rows).toBeLessThanOrEqual(rowsPerHour + 2);
    }
    expect(perHour.reduce((total, h) => total + h.clicks, 0)).toBe(n);

    const res = await send("GET", `/${code}/analytics`, "198.51.100.1");
    expect(res.status).toBe(200);
    const a = res.body as { totals: unknown; referrers: Breakdown; browsers: Breakdown; series: { humans: number; bots: number }[] };
    expect(a.totals).toEqual({ all: n, humans: 0, bots: n });
    expect(a.series.reduce((total, p) => total + p.humans + p.bots, 0)).toBe(n);
    expect(sum(a.referrers)).toBe(n);
    expect(a.referrers.other.bots).toBeGreaterThanOrEqual(n - perHour.length * valuesPerHour);
    // Bot names come from the known list: curl by name, the unknown one as other bot.
    expect(a.browsers.top).toEqual([
      { value: "curl", humans: 0, bots: n / 2 },
      { value: otherBot, humans: 0, bots: n / 2 },
    ]);
  });
});

describe("reading analytics", () => {
  test("past the reads allowed per address: 429 with Retry-After, for that address only; GET /me/clicks counts too", async () => {
    const code = await shorten("198.51.100.2");
    for (let i = 0; i < 5; i++) expect((await send("GET", `/${code}/analytics`, "198.51.100.2")).status).toBe(200);
    const refused = await send("GET", `/${code}/analytics`, "198.51.100.2");
    expect(refused).toMatchObject({ status: 429, body: { code: "resource_exhausted" } });
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect((await send("GET", `/${code}/analytics`, "198.51.100.3")).status).toBe(200);

    const signup = await send("POST", "/users", "198.51.100.4", { email: "bounds@example.com", name: "Ada", age: 36, password: "correct horse battery" });
    expect(signup.status).toBe(200);
    const login = await send("POST", "/auth/login", "198.51.100.4", { email: "bounds@example.com", password: "correct horse battery" });
    const auth = { authorization: `Bearer ${login.body.token as string}` };
    for (let i = 0; i < 5; i++) expect((await send("GET", "/me/clicks", "198.51.100.4", undefined, auth)).status).toBe(200);
    expect(await send("GET", "/me/clicks", "198.51.100.4", undefined, auth)).toMatchObject({ status: 429, retryAfter: expect.any(String) });
  });

  test("a read the server stops at ANALYTICS_READ_TIMEOUT_MS answers 503 with Retry-After, not 500", async () => {
    const code = await shorten("198.51.100.5");
    // The table locked by another transaction: the read waits until its statement timeout.
    await using tx = await db.begin();
    await tx.exec`LOCK TABLE link_clicks_hourly IN ACCESS EXCLUSIVE MODE`;
    const res = await send("GET", `/${code}/analytics`, "198.51.100.5");
    await tx.rollback();
    expect(res).toMatchObject({ status: 503, body: { code: "unavailable" } });
    expect(Number(res.retryAfter)).toBeGreaterThan(0);
  });

  test("POST /shorten stays 200 while many slow analytics reads of a link with 100,000 rows run at once", async () => {
    const code = await shorten("198.51.100.6");
    // As many rows as 100,000 distinct referrers made before the bound: written directly.
    await db.exec`
      INSERT INTO link_clicks_hourly (code, hour, bot, referrer, country, browser, os, device, clicks)
      SELECT ${code}, date_trunc('hour', now()) - (k % 24) * interval '1 hour', true, 'r' || k || '.example', 'unknown', 'curl', 'unknown', 'bot', 1
      FROM generate_series(1, 100000) AS k`;
    const reads = Array.from({ length: 20 }, (_, i) => send("GET", `/${code}/analytics`, `203.0.113.${i + 1}`));
    const shortens = Array.from({ length: 10 }, (_, i) => send("POST", "/shorten", `192.0.2.${i + 1}`, { url: `https://example.com/${i}` }));
    for (const s of await Promise.all(shortens)) expect(s.status).toBe(200);
    // Each read answers, or is shed with a retry: never a 500, never a wait past the bounds.
    for (const r of await Promise.all(reads)) {
      expect([200, 503]).toContain(r.status);
      if (r.status === 503) expect(Number(r.retryAfter)).toBeGreaterThan(0);
    }
  });

  test("POST /shorten stays 200 while 40 analytics reads, each running to its time box, are asked at once", async () => {
    const code = await shorten("198.51.100.7");
    // The table locked by another transaction (one connection of the pool): every read runs
    // until its statement timeout, holding its connection. At most ANALYTICS_READS_AT_ONCE (2)
    // do, so the pool (4) keeps a connection for shortens however many reads are asked.
    await using tx = await db.begin();
    await tx.exec`LOCK TABLE link_clicks_hourly IN ACCESS EXCLUSIVE MODE`;
    const reads = Array.from({ length: 40 }, (_, i) => send("GET", `/${code}/analytics`, `203.0.113.${i + 101}`));
    const shortens = Array.from({ length: 10 }, (_, i) => send("POST", "/shorten", `192.0.2.${i + 101}`, { url: `https://example.com/t${i}` }));
    for (const s of await Promise.all(shortens)) expect(s.status).toBe(200);
    const answers = await Promise.all(reads);
    await tx.rollback();
    for (const r of answers) expect(r).toMatchObject({ status: 503, retryAfter: expect.any(String) });
  });
});
