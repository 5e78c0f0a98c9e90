// POST /links/bulk over real HTTP: items stored independently, each counted against the
// link limits, in item order, and the bound on items.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { db } from "../url/db.ts";
import { LinkClient } from "./support/link-client.ts";

vi.hoisted(() => {
  // Read once, when the configs load: each test names its address.
  process.env.TRUST_PROXY = "on";
  process.env.SHORTEN_LIMIT_PER_USER = "1500";
});

let server: TestServer;
const client = new LinkClient(() => server.url);
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface Results {
  results: ({ code: string; shortUrl: string } | { error: { code: string; message: string } })[];
}

async function bulk(items: unknown[], token: string): Promise<{ status: number; body: Results }> {
  const res = await client.post("/links/bulk", { items }, { token, from: client.nextAddress() });
  return { status: res.status, body: (await res.json()) as Results };
}

describe("POST /links/bulk", () => {
  test("3 items, one bad: two links and one error, in item order", async () => {
    const token = await client.signUp("bulk-three@example.com");
    const { status, body } = await bulk(
      [{ url: "https://example.com/a", title: "A" }, { url: "ftp://example.com/b" }, { url: "https://example.com/c", alias: "bulk-c" }],
      token,
    );
    expect(status).toBe(200);
    expect(body.results).toEqual([
      { code: expect.stringMatching(/^[a-z0-9]{6}$/), shortUrl: expect.stringMatching(/^https:\/\/sho\.rt\//) },
      { error: { code: "invalid_argument", message: "url must use http or https, not ftp" } },
      { code: "bulk-c", shortUrl: "https://sho.rt/bulk-c" },
    ]);
    const first = body.results[0] as { code: string };
    expect(await (await client.request("GET", `/${first.code}`)).json()).toEqual({ url: "https://example.com/a" });
    expect((await db.queryRow<{ title: string }>`SELECT title FROM urls WHERE code = ${first.code}`)!.title).toBe("A");
  });

  test("1000 items are stored, each with its own code; 1,001 are 400 naming the limit", async () => {
    const token = await client.signUp("bulk-many@example.com");
    const items = Array.from({ length: 1000 }, (_, i) => ({ url: `https://example.com/many/${i}` }));
    const started = Date.now();
    const { status, body } = await bulk(items, token);
    expect(status).toBe(200);
    expect(Date.now() - started).toBeLessThan(10_000);
    const codes = body.results.map((r) => (r as { code: string }).code);
    expect(new Set(codes).size).toBe(1000);
    const stored = await db.queryRow<{ n: number }>`SELECT count(*)::int AS n FROM urls WHERE code = ANY(${codes}::text[])`;
    expect(stored!.n).toBe(1000);

    const tooMany = await bulk([...items, { url: "https://example.com/one-more" }], token);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ code: "invalid_argument", message: "items must hold 1 to 1000 links, got 1001" });
    expect((await bulk([], token)).status).toBe(400);
  });

  test("needs a signed-in user", async () => {
    const res = await client.post("/links/bulk", { items: [{ url: "https://example.com/" }] });
    expect(res.status).toBe(401);
  });

  test("aliases of one request clash as with two requests; one password is hashed once", async () => {
    const token = await client.signUp("bulk-alias@example.com");
    const { body } = await bulk(
      [
        { url: "https://example.com/1", alias: "Bulk-Dup", password: "shared" },
        { url: "https://example.com/2", alias: "bulk-dup", password: "shared" },
        { url: "https://example.com/3", password: "shared" },
      ],
      token,
    );
    expect(body.results[1]).toEqual({ error: { code: "already_exists", message: expect.stringMatching(/is taken/) } });
    const codes = [body.results[0], body.results[2]].map((r) => (r as { code: string }).code);
    const hashes = await db.queryAll<{ password_hash: string }>`SELECT password_hash FROM urls WHERE code = ANY(${codes}::text[])`;
    expect(hashes).toHaveLength(2);
    expect(hashes[0]!.password_hash).toBe(hashes[1]!.password_hash);
    const open = await client.request("GET", `/${codes[1]}`, { from: client.nextAddress(), headers: { "x-link-password": "shared" } });
    expect(open.status).toBe(200);
  });
});
