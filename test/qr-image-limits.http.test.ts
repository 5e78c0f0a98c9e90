// The limit on drawing QR images (GET /links/:code/qr) over real HTTP: an address gets its
// renders, then 429 with Retry-After; an image among the recent renders is sent without
// counting; another address is unaffected. Behind a trusted proxy here, so each request can
// say which address it is from; a window of an hour, so a slow machine cannot outlast it.
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startTestServer, type TestServer } from "../runtime/test/server.ts";

vi.hoisted(() => {
  // Read once, when the links service's config and limits/qr-images.ts load.
  process.env.TRUST_PROXY = "on";
  process.env.QR_IMAGE_LIMIT_PER_ADDRESS = "5";
  process.env.QR_IMAGE_LIMIT_WINDOW_SECONDS = "3600";
});

let server: TestServer;
let code: string;
beforeAll(async () => {
  server = await startTestServer();
  const res = await fetch(`${server.url}/shorten`, { method: "POST", body: JSON.stringify({ url: "https://example.com/qr-limits" }) });
  code = ((await res.json()) as { code: string }).code;
});
afterAll(() => server.close());

const qr = (from: string, size: number) => fetch(`${server.url}/links/${code}/qr?size=${size}`, { headers: { "x-forwarded-for": from } });

describe("QR images per address", () => {
  test("5 renders; the 6th is 429 resource_exhausted with Retry-After; a recent image is still sent; another address draws on", async () => {
    for (const size of [100, 101, 102, 103, 104]) expect((await qr("203.0.113.30", size)).status).toBe(200);
    const refused = await qr("203.0.113.30", 105);
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as { code: string; message: string; details: { retryAfterSeconds: number } };
    expect(body).toMatchObject({ code: "resource_exhausted", message: expect.stringMatching(/^too many QR images drawn for this address; try again in \d+ seconds$/) });
    expect(body.details.retryAfterSeconds).toBeLessThanOrEqual(3600);
    expect(refused.headers.get("retry-after")).toBe(String(body.details.retryAfterSeconds));

    const recent = await qr("203.0.113.30", 102);
    expect([recent.status, recent.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect((await qr("203.0.113.31", 105)).status).toBe(200);
  });

  test("an unknown code or a bad parameter is answered as before, not counted", async () => {
    for (let i = 0; i < 10; i++) {
      expect((await fetch(`${server.url}/links/nosuchcode/qr`, { headers: { "x-forwarded-for": "203.0.113.32" } })).status).toBe(404);
      expect((await fetch(`${server.url}/links/${code}/qr?size=1`, { headers: { "x-forwarded-for": "203.0.113.32" } })).status).toBe(400);
    }
    expect((await qr("203.0.113.32", 200)).status).toBe(200);
  });
});
