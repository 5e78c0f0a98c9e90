import { describe, expect, test } from "vitest";
import { parseSignupLimits, SignupLimits } from "./signups";

describe("parseSignupLimits", () => {
  test("20 per address in an hour by default; off turns the limit off", () => {
    expect(parseSignupLimits({})).toEqual({ perAddress: 20, windowSeconds: 3600 });
    expect(parseSignupLimits({ SIGNUP_LIMIT_PER_ADDRESS: "Off", SIGNUP_LIMIT_WINDOW_SECONDS: "60" })).toEqual({ perAddress: null, windowSeconds: 60 });
  });

  test.each([
    ["SIGNUP_LIMIT_PER_ADDRESS", "0"],
    ["SIGNUP_LIMIT_PER_ADDRESS", "lots"],
    ["SIGNUP_LIMIT_WINDOW_SECONDS", "0"],
    ["SIGNUP_LIMIT_WINDOW_SECONDS", "604801"],
  ])("%s=%s is refused, naming the variable", (name, value) => {
    expect(() => parseSignupLimits({ [name]: value })).toThrow(new RegExp(`invalid configuration: ${name}`));
  });
});

describe("SignupLimits in memory", () => {
  test("an address gets its sign-ups, then 429; one taken back is free again; no address is not counted", async () => {
    const limits = new SignupLimits({ perAddress: 2, windowSeconds: 3600 }, null);
    await limits.count("203.0.113.1");
    await limits.count("203.0.113.1");
    await limits.takeBack("203.0.113.1");
    await limits.count("203.0.113.1");
    const refused = await limits.count("203.0.113.1").catch((err: unknown) => err);
    expect(refused).toMatchObject({ code: "resource_exhausted", message: expect.stringMatching(/^too many accounts opened from this address/) });
    expect((refused as { details: { retryAfterSeconds: number } }).details.retryAfterSeconds).toBeGreaterThan(3590);
    await expect(limits.count("203.0.113.2")).resolves.toBeUndefined();
    for (let i = 0; i < 5; i++) await expect(limits.count(undefined)).resolves.toBeUndefined();
  });
});
