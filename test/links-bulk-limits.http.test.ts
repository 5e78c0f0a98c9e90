// Each item of POST /links/bulk counts against the link limits (limits/links.ts), as a
// POST /shorten would: past the user's limit the rest of the items get 429's error.
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";
import { LinkClient } from "./support/link-client.ts";

vi.hoisted(() => {
  process.env.TRUST_PROXY = "on";
  process.env.SHORTEN_LIMIT_PER_USER = "10";
});

let server: TestServer;
const client = new LinkClient(() => server.url);
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

test("a user limit of 10: a bulk of 12 stores 10, the other two are resource_exhausted; a bad item costs nothing", async () => {
  const token = await client.signUp("bulk-limited@example.com");
  const items = [{ url: "nope" }, ...Array.from({ length: 12 }, (_, i) => ({ url: `https://example.com/limited/${i}` }))];
  const res = await client.post("/links/bulk", { items }, { token, from: client.nextAddress() });
  expect(res.status).toBe(200);
  const { results } = (await res.json()) as { results: { code?: string; error?: { code: string; message: string } }[] };
  expect(results[0]!.error?.code).toBe("invalid_argument");
  expect(results.filter((r) => r.code !== undefined)).toHaveLength(10);
  const refused = results.filter((r) => r.error?.code === "resource_exhausted");
  expect(refused).toHaveLength(2);
  expect(refused[0]!.error!.message).toMatch(/^too many links created by this account or address/);
  // The budget is spent for POST /shorten too.
  expect((await client.post("/shorten", { url: "https://example.com/after" }, { token, from: client.nextAddress() })).status).toBe(429);
});
