import { describe, expect, test } from "vitest";
import { ApiKeyLimits, parseApiKeyLimits } from "./api-keys";

describe("API_KEY_FAILURES_PER_ADDRESS", () => {
  test("100 by default, a whole number or off", () => {
    expect(parseApiKeyLimits({})).toEqual({ failuresPerAddress: 100 });
    expect(parseApiKeyLimits({ API_KEY_FAILURES_PER_ADDRESS: "3" })).toEqual({ failuresPerAddress: 3 });
    expect(parseApiKeyLimits({ API_KEY_FAILURES_PER_ADDRESS: "OFF" })).toEqual({ failuresPerAddress: null });
    expect(() => parseApiKeyLimits({ API_KEY_FAILURES_PER_ADDRESS: "0" })).toThrow(/invalid configuration: API_KEY_FAILURES_PER_ADDRESS/);
  });
});

describe("ApiKeyLimits in memory", () => {
  test("an address gets its failures, then 429 with the rest of the hour; other addresses are free", async () => {
    const limits = new ApiKeyLimits({ failuresPerAddress: 2 }, null);
    for (let i = 0; i < 2; i++) {
      await limits.check("203.0.113.1");
      await limits.failed("203.0.113.1");
    }
    const refused = await limits.check("203.0.113.1").catch((err: unknown) => err);
    expect(refused).toMatchObject({
      code: "resource_exhausted",
      message: expect.stringMatching(/^too many failed API key attempts from this address; try again in \d+ seconds$/),
    });
    expect((refused as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds).toBeGreaterThan(3590);
    await expect(limits.check("203.0.113.2")).resolves.toBeUndefined();
  });

  test("checks alone (keys that worked) never use the budget up; off: no limit", async () => {
    const limits = new ApiKeyLimits({ failuresPerAddress: 1 }, null);
    for (let i = 0; i < 5; i++) await limits.check("203.0.113.3");
    const off = new ApiKeyLimits({ failuresPerAddress: null }, null);
    for (let i = 0; i < 5; i++) await off.failed("203.0.113.3");
    await expect(off.check("203.0.113.3")).resolves.toBeUndefined();
  });
});
