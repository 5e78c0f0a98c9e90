// Lookups of links not cached yet, as `npm start` runs the app, with LOOKUP_READS_AT_ONCE=1
// so that its bound is reached on purpose: lookups of one code share one read of its row;
// past the bound a lookup is refused at once with 503 and Retry-After, no click counted,
// and url_lookups_shed says how many were. Anything else a lookup answers fails the test.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, test } from "vitest";
import { whenListening, whenLogged, type Serving } from "../runtime/test/command.ts";
import { dropServerDatabases, spawnApp } from "./support/app-process.ts";
import { parseScrape, valueOf } from "../runtime/test/prometheus.ts";
import { burstClient } from "./support/burst-client.ts";

const prefix = `${process.env.DATABASE_NAME_PREFIX ?? ""}shed_`;
const token = "lookup-shedding-token-0123456789";

let app: Serving;
let metricsUrl: string;
let sql: pg.Client;
const client = burstClient();

beforeAll(async () => {
  const spawned = spawnApp({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "lookup-shedding-")),
    DATABASE_NAME_PREFIX: prefix,
    LOOKUP_READS_AT_ONCE: "1",
    METRICS_PORT: "0",
    METRICS_TOKEN: token,
    SHORTEN_LIMIT_PER_ADDRESS: "off",
    CRON: "off",
    NATS_URL: "",
  });
  const metricsPort = await whenLogged(spawned, /"metrics":"http:\/\/[^"]*:(\d+)\/metrics/, "serving metrics", 90_000);
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  app = await whenListening(spawned);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${prefix}url`;
  sql = new pg.Client({ connectionString: url.href });
  await sql.connect();
}, 120_000);

afterAll(async () => {
  client.close();
  await sql?.end();
  if (app) expect(await app.stop("SIGTERM")).toBe(0);
  await dropServerDatabases(prefix);
});

async function shorten(n: number): Promise<string> {
  const res = await fetch(`${app.url}/shorten`, { method: "POST", body: JSON.stringify({ url: `https://example.com/shed/${n}` }) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { code: string }).code;
}

const shedAnswer = {
  status: 503,
  retryAfter: "1",
  body: { code: "unavailable", message: "too many links are being looked up at once; try again in a second", details: { retryAfterSeconds: 1 } },
};

/** 200 with the link, or the shedding 503; anything else fails with what it was. */
async function lookup(code: string, n: number): Promise<200 | 503> {
  const res = await client.get(`${app.url}/${code}`);
  const body = JSON.parse(res.body) as unknown;
  if (res.status === 200) {
    expect(body).toEqual({ url: `https://example.com/shed/${n}` });
    return 200;
  }
  expect({ status: res.status, retryAfter: res.headers["retry-after"], body }).toEqual(shedAnswer);
  return 503;
}

async function shedSoFar(): Promise<number> {
  const res = await fetch(metricsUrl, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  const scrape = parseScrape(await res.text());
  // A counter's family appears with its first increment.
  return scrape.has("url_lookups_shed") ? valueOf(scrape, "url_lookups_shed", { service: "url" }) : 0;
}

/** Clicks as stats count them: every click answered, written yet or not. */
async function clicksOf(code: string): Promise<number> {
  const res = await fetch(`${app.url}/${code}/stats`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { clicks: number }).clicks;
}

test("lookups of a code being read join its read; a lookup of another code meanwhile is shed, and counts no click", async () => {
  const [a, b] = [await shorten(1), await shorten(2)];
  // The first lookup starts the instance's listener for evictions (which reads the table), before the lock.
  expect(await lookup(await shorten(0), 0)).toBe(200);
  const shedBefore = await shedSoFar();
  // The urls table locked: the read of a's row waits until the lock goes.
  await sql.query("BEGIN");
  await sql.query("LOCK TABLE urls IN ACCESS EXCLUSIVE MODE");
  let released = false;
  try {
    const first = lookup(a, 1);
    // Reads of the table waiting for the lock: a SELECT waits for ACCESS SHARE (a write of
    // clicks would wait for ROW EXCLUSIVE). Found by lock, not by query text: a statement the
    // connection prepared before waits at its bind, where pg_stat_activity still shows the
    // connection's previous statement.
    const waiting = async () =>
      (await sql.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'urls'::regclass AND mode = 'AccessShareLock' AND NOT granted")).rows[0]!.n;
    while ((await waiting()) === 0) await new Promise((resolve) => setTimeout(resolve, 20)); // until the test's timeout
    // The one read allowed is under way: b's lookup is refused at once, while a's stays locked.
    expect(await lookup(b, 2)).toBe(503);
    // More lookups of a, sent while its read is still under way: each joins it rather than being shed.
    const joined = Array.from({ length: 10 }, () => lookup(a, 1));
    expect(await lookup(b, 2)).toBe(503);
    expect(await waiting()).toBe(1);
    await sql.query("COMMIT");
    released = true;
    expect(await Promise.all([first, ...joined])).toEqual(Array(11).fill(200));
  } finally {
    if (!released) await sql.query("ROLLBACK");
  }
  expect(await shedSoFar()).toBe(shedBefore + 2);
  expect(await clicksOf(a)).toBe(11);
  expect(await clicksOf(b)).toBe(0);
  // Nothing holds on to a shed: b answers once the read is done.
  expect(await lookup(b, 2)).toBe(200);
  expect(await clicksOf(b)).toBe(1);
}, 60_000);

test("2000 concurrent lookups over 50 uncached codes: each is 200 or shed, the 200s are the clicks, the 503s the metric", async () => {
  const codes: string[] = [];
  for (let i = 0; i < 50; i++) codes.push(await shorten(100 + i));
  const shedBefore = await shedSoFar();
  const statuses = await Promise.all(Array.from({ length: 2000 }, (_, i) => lookup(codes[i % 50]!, 100 + (i % 50))));
  const answered = statuses.filter((s) => s === 200).length;
  const shed = statuses.length - answered;
  // Whichever code is read first: its 40 lookups either join that read or find the link cached.
  expect(answered).toBeGreaterThanOrEqual(40);
  expect(await shedSoFar()).toBe(shedBefore + shed);
  const clicks = await Promise.all(codes.map(clicksOf));
  expect(clicks.reduce((sum, n) => sum + n, 0)).toBe(answered);
}, 120_000);
