import { afterEach, describe, expect, test, vi } from "vitest";
import { ApiKeyLimits, parseApiKeyLimits } from "./api-keys";

describe("API_KEY_FAILURES_PER_MINUTE", () => {
  test("600 by default, a whole number or off; an error names the variable", () => {
    expect(parseApiKeyLimits({})).toEqual({ failuresPerMinute: 600 });
    expect(parseApiKeyLimits({ API_KEY_FAILURES_PER_MINUTE: "3" })).toEqual({ failuresPerMinute: 3 });
    expect(parseApiKeyLimits({ API_KEY_FAILURES_PER_MINUTE: "OFF" })).toEqual({ failuresPerMinute: null });
    expect(() => parseApiKeyLimits({ API_KEY_FAILURES_PER_MINUTE: "0" })).toThrow(/invalid configuration: API_KEY_FAILURES_PER_MINUTE/);
    expect(() => parseApiKeyLimits({ API_KEY_FAILURES_PER_MINUTE: "ten" })).toThrow(/API_KEY_FAILURES_PER_MINUTE/);
  });
});

// Digests stand for keys: the limits never see a key, only its SHA-256.
const digest = (name: string) => name.padEnd(64, "0");

describe("ApiKeyLimits in memory", () => {
  afterEach(() => void vi.useRealTimers());

  test("past the budget, over all keys, a key that never worked gets 429 with the rest of the minute", async () => {
    const limits = new ApiKeyLimits({ failuresPerMinute: 2 }, null);
    // Two different keys: the budget is not per key (nor per anything else).
    for (const name of ["a", "b"]) {
      await limits.check(digest(name));
      await limits.failed(digest(name));
    }
    const refused = await limits.check(digest("c")).catch((err: unknown) => err);
    expect(refused).toMatchObject({
      code: "resource_exhausted",
      message: expect.stringMatching(/^too many failed API key attempts; try again in \d+ seconds$/),
    });
    const wait = (refused as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds;
    expect(wait).toBeGreaterThan(50);
    expect(wait).toBeLessThanOrEqual(60);
  });

  test("a key that worked is still let through past the budget; one that failed since is not", async () => {
    const limits = new ApiKeyLimits({ failuresPerMinute: 1 }, null);
    limits.succeeded(digest("good"));
    limits.succeeded(digest("revoked"));
    await limits.failed(digest("guess"));
    await expect(limits.check(digest("guess2"))).rejects.toMatchObject({ code: "resource_exhausted" });
    await expect(limits.check(digest("good"))).resolves.toBeUndefined();
    // The revoked key is looked up once more (it was known), fails, and is known no longer.
    await expect(limits.check(digest("revoked"))).resolves.toBeUndefined();
    await limits.failed(digest("revoked"));
    await expect(limits.check(digest("revoked"))).rejects.toMatchObject({ code: "resource_exhausted" });
    await expect(limits.check(digest("good"))).resolves.toBeUndefined();
  });

  test("a new key waits for the minute to end, then is looked up", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    const limits = new ApiKeyLimits({ failuresPerMinute: 1 }, null);
    await limits.failed(digest("guess"));
    await expect(limits.check(digest("new"))).rejects.toMatchObject({ code: "resource_exhausted" });
    vi.advanceTimersByTime(59_000);
    await expect(limits.check(digest("new"))).rejects.toMatchObject({ code: "resource_exhausted" });
    vi.advanceTimersByTime(1_000);
    await expect(limits.check(digest("new"))).resolves.toBeUndefined();
  });

  test("successes and checks alone never use the budget up; off: no limit", async () => {
    const limits = new ApiKeyLimits({ failuresPerMinute: 1 }, null);
    for (let i = 0; i < 5; i++) {
      await limits.check(digest(`k${i}`));
      limits.succeeded(digest(`k${i}`));
    }
    await expect(limits.check(digest("another"))).resolves.toBeUndefined();
    const off = new ApiKeyLimits({ failuresPerMinute: null }, null);
    for (let i = 0; i < 5; i++) await off.failed(digest("guess"));
    await expect(off.check(digest("guess"))).resolves.toBeUndefined();
  });
});
