import { describe, expect, test } from "vitest";
import { AnalyticsReads, parseAnalyticsReads } from "./analytics-reads";

describe("parseAnalyticsReads", () => {
  test("60 per address a minute, 2 at once, 2 s a statement by default; off turns the address limit off", () => {
    expect(parseAnalyticsReads({})).toEqual({ perAddress: 60, windowSeconds: 60, atOnce: 2, timeoutMs: 2000 });
    expect(parseAnalyticsReads({ ANALYTICS_READ_LIMIT_PER_ADDRESS: "off", ANALYTICS_READS_AT_ONCE: "5", ANALYTICS_READ_TIMEOUT_MS: "500" })).toEqual({
      perAddress: null,
      windowSeconds: 60,
      atOnce: 5,
      timeoutMs: 500,
    });
  });

  test.each([
    ["ANALYTICS_READ_LIMIT_PER_ADDRESS", "0"],
    ["ANALYTICS_READ_LIMIT_WINDOW_SECONDS", "0"],
    ["ANALYTICS_READS_AT_ONCE", "0"],
    ["ANALYTICS_READS_AT_ONCE", "two"],
    ["ANALYTICS_READ_TIMEOUT_MS", "5"],
  ])("%s=%s is refused, naming the variable", (name, value) => {
    expect(() => parseAnalyticsReads({ [name]: value })).toThrow(new RegExp(`invalid configuration: ${name}`));
  });
});

describe("AnalyticsReads in memory", () => {
  test("an address gets its reads, then 429 with the wait; no address is not counted", async () => {
    const reads = new AnalyticsReads({ perAddress: 2, windowSeconds: 60, atOnce: 2, timeoutMs: 1000 }, null);
    await reads.count("203.0.113.1");
    await reads.count("203.0.113.1");
    const refused = await reads.count("203.0.113.1").catch((err: unknown) => err);
    expect(refused).toMatchObject({ code: "resource_exhausted", message: expect.stringMatching(/^too many analytics reads from this address/) });
    expect((refused as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds).toBeGreaterThan(50);
    await expect(reads.count("203.0.113.2")).resolves.toBeUndefined();
    for (let i = 0; i < 5; i++) await expect(reads.count(undefined)).resolves.toBeUndefined();
  });

  test("past the reads at once, a read waits for a place; one that finds none in time is 503 with a retry", async () => {
    const reads = new AnalyticsReads({ perAddress: null, windowSeconds: 60, atOnce: 1, timeoutMs: 1000 }, null);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = reads.atOnce(() => held.then(() => "first"));
    // Nothing frees the place until after the second gave up: it cannot get one.
    const second = await reads.atOnce(async () => "second").catch((err: unknown) => err);
    expect(second).toMatchObject({ code: "unavailable", details: { retryAfterSeconds: 1 } });
    // A waiting read takes the place the running one leaves.
    const third = reads.atOnce(async () => "third");
    release();
    await expect(first).resolves.toBe("first");
    await expect(third).resolves.toBe("third");
    // And the place is free again afterwards.
    await expect(reads.atOnce(async () => "fourth")).resolves.toBe("fourth");
  });
});
