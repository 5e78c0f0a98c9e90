// url-shortened events end to end: POST /shorten → outbox → topic → track-analytics → GET /analytics/daily.
import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { countOnce } from "../analytics/counting/count-once.ts";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { db as urlDb } from "../url/db.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

// 1000 requests in flight at once over 100 sockets: more sockets than the
// listen backlog would test the kernel's SYN queue instead of the app.
const agent = new Agent({ keepAlive: true, maxSockets: 100 });
afterAll(() => agent.destroy());

function post(path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}${path}`, { method: "POST", agent }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const today = () => new Date().toISOString().slice(0, 10);

async function createdToday(): Promise<number> {
  const res = await fetch(`${server.url}/analytics/daily?from=${today()}&to=${today()}`);
  expect(res.status).toBe(200);
  const { days } = (await res.json()) as { days: { date: string; urlsCreated: number }[] };
  return days.find((d) => d.date === today())?.urlsCreated ?? 0;
}

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("url-shortened → daily_stats", () => {
  test("1000 concurrent shortens raise today's urls_created by exactly 1000", async () => {
    const before = await createdToday();
    const statuses = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => post("/shorten", JSON.stringify({ url: `https://example.com/e/${i}` }))),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    await eventually(async () => (await createdToday()) >= before + 1000, "1000 events counted");
    await new Promise((r) => setTimeout(r, 500)); // a duplicate would show up now
    expect(await createdToday()).toBe(before + 1000);
    const outbox = await urlDb.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM url_shortened_outbox`;
    expect(outbox!.n).toBe(0);
  });

  test("a message delivered twice counts once", async () => {
    const at = new Date("2026-03-04T23:59:59.999Z");
    expect(await countOnce("message-1", at)).toBe(true);
    expect(await countOnce("message-1", at)).toBe(false);
    const res = await fetch(`${server.url}/analytics/daily?from=2026-03-04&to=2026-03-05`);
    expect(await res.json()).toEqual({ days: [{ date: "2026-03-04", urlsCreated: 1 }] });
  });
});

describe("GET /analytics/daily", () => {
  test.each([
    ["from=2026-02-30&to=2026-03-01", "from must be a date as YYYY-MM-DD"],
    ["from=yesterday", "from must be a date as YYYY-MM-DD"],
    ["from=2026-03-02&to=2026-03-01", "from must not be after to"],
    ["from=2020-01-01&to=2026-01-01", "at most 366 days"],
  ])("%s is rejected with invalid_argument", async (query, message) => {
    const res = await fetch(`${server.url}/analytics/daily?${query}`);
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: string; message: string };
    expect(body.code).toBe("invalid_argument");
    expect(body.message).toContain(message);
  });

  test("without dates it answers the last 30 days", async () => {
    const res = await fetch(`${server.url}/analytics/daily`);
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveProperty("days");
  });
});
