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

describe("ApiKeyLimits in memory", () => {
  afterEach(() => void vi.useRealTimers());

  test("failures within the budget pass; past it each is 429 with the rest of the minute", async () => {
    const limits = new ApiKeyLimits({ failuresPerMinute: 2 }, null);
    await limits.failed();
    await limits.failed();
    const refused = await limits.failed().catch((err: unknown) => err);
    expect(refused).toMatchObject({
      code: "resource_exhausted",
      message: expect.stringMatching(/^too many failed API key attempts; try again in \d+ seconds$/),
    });
    const wait = (refused as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds;
    expect(wait).toBeGreaterThan(50);
    expect(wait).toBeLessThanOrEqual(60);
  });

  test("the minute over, failures pass again", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    const limits = new ApiKeyLimits({ failuresPerMinute: 1 }, null);
    await limits.failed();
    await expect(limits.failed()).rejects.toMatchObject({ code: "resource_exhausted" });
    vi.advanceTimersByTime(59_000);
    await expect(limits.failed()).rejects.toMatchObject({ code: "resource_exhausted" });
    vi.advanceTimersByTime(1_000);
    await expect(limits.failed()).resolves.toBeUndefined();
  });

  test("off: no limit", async () => {
    const off = new ApiKeyLimits({ failuresPerMinute: null }, null);
    for (let i = 0; i < 5; i++) await expect(off.failed()).resolves.toBeUndefined();
  });
});
