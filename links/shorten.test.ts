import { appMeta } from "encore.dev";
import { describe, expect, test } from "vitest";
import { url } from "~encore/clients";
import { routeFirstSegments } from "./shortening/route-segments";
import { shorten } from "./shorten";
import { maxCodeAttempts, storeUnderFreshCode } from "./shortening/fresh-code";

// What a link stores is read back as the url service answers it (its stats endpoint).
const stats = (req: { code: string }) => url.stats(req);

/** A code source that yields the given codes in turn. */
function drawing(...codes: string[]): () => string {
  let i = 0;
  return () => codes[Math.min(i++, codes.length - 1)]!;
}

describe("shortening", () => {
  test("gives a 6-character [a-z0-9] code and an absolute short link", async () => {
    const response = await shorten({ url: "https://example.com/page?q=1" });
    const { code, shortUrl } = response;
    expect(response).not.toHaveProperty("qrCodeUrl"); // the QR-code extension is off by default
    expect(code).toMatch(/^[a-z0-9]{6}$/);
    expect(shortUrl).toBe(`${appMeta().apiBaseUrl}/${code}`);
    expect(await stats({ code })).toEqual({ code, originalUrl: "https://example.com/page?q=1", clicks: 0, createdAt: expect.any(Date) });
  });

  test("codes use the whole alphabet with no modulo bias", async () => {
    const { generateCode } = await import("../link-rules/codes");
    const counts = new Map<string, number>();
    for (let i = 0; i < 12_000; i++) for (const c of generateCode()) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect([...counts.keys()].sort().join("")).toBe("0123456789abcdefghijklmnopqrstuvwxyz");
    // `byte % 36` would favour a–d (8/256 each against 7/256): about 2,220 each against
    // 1,940 for the rest. Unbiased, both average 2,000, and their gap has a spread of ~23.
    const mean = (chars: string) => [...chars].reduce((sum, c) => sum + counts.get(c)!, 0) / chars.length;
    expect(Math.abs(mean("abcd") - mean("efghijklmnopqrstuvwxyz0123456789"))).toBeLessThan(100);
  });

  test("a code already taken is retried with a new one", async () => {
    const taken = await storeUnderFreshCode("https://first.example", drawing("aaaaa1"));
    expect(taken).toBe("aaaaa1");
    const code = await storeUnderFreshCode("https://second.example", drawing("aaaaa1", "aaaaa2"));
    expect(code).toBe("aaaaa2");
    expect((await stats({ code: "aaaaa1" })).originalUrl).toBe("https://first.example");
    expect((await stats({ code: "aaaaa2" })).originalUrl).toBe("https://second.example");
  });

  test("a code equal to a static route segment is never handed out", async () => {
    // "orders" is the one segment a code could equal today (6 characters of [a-z0-9]).
    const reserved = "orders";
    expect(routeFirstSegments.has(reserved)).toBe(true);
    const code = await storeUnderFreshCode("https://reserved.example", drawing(reserved, "bbbbb1"));
    expect(code).toBe("bbbbb1");
  });

  test("after repeated collisions the request fails with unavailable, and stores nothing", async () => {
    await storeUnderFreshCode("https://holder.example", drawing("ccccc1"));
    const failing = storeUnderFreshCode("https://never.example", drawing("ccccc1"));
    await expect(failing).rejects.toMatchObject({ code: "unavailable" });
    expect(maxCodeAttempts).toBeGreaterThan(1);
    expect((await stats({ code: "ccccc1" })).originalUrl).toBe("https://holder.example");
  });

  test.each([
    ["javascript:alert(1)", /http or https, not javascript/],
    ["data:text/html,<script>", /http or https, not data/],
    ["file:///etc/passwd", /http or https, not file/],
    ["https://user:pass@example.com/", /must not hold a user name or password/],
    ["/just/a/path", /absolute URL/],
    ["", /must not be empty/],
    ["   ", /must not be empty/],
    [`https://example.com/${"a".repeat(2048)}`, /at most 2048 characters/],
  ])("refuses %j with invalid_argument saying why", async (url, why) => {
    await expect(shorten({ url })).rejects.toMatchObject({ code: "invalid_argument", message: expect.stringMatching(why) });
  });

  test("refuses a link to this service itself, which would redirect in a loop", async () => {
    const self = `${appMeta().apiBaseUrl}/abcdef`;
    await expect(shorten({ url: self })).rejects.toMatchObject({
      code: "invalid_argument",
      message: expect.stringMatching(/this service/),
    });
  });
});
