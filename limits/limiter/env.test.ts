import { describe, expect, test } from "vitest";
import { parseLoginLimits } from "../logins";
import { redisSettings } from "./env";

describe("REDIS_URL and REDIS_KEY_PREFIX", () => {
  test("unset: no Redis, limits per instance", () => {
    expect(redisSettings({})).toBeNull();
  });

  test("a redis:// or rediss:// URL, with an optional key prefix", () => {
    expect(redisSettings({ REDIS_URL: "redis://127.0.0.1:6379", REDIS_KEY_PREFIX: "prod:" })).toEqual({ url: "redis://127.0.0.1:6379", keyPrefix: "prod:" });
    expect(redisSettings({ REDIS_URL: " rediss://user:pw@cache.example:6380/2 " })).toEqual({ url: "rediss://user:pw@cache.example:6380/2", keyPrefix: "" });
  });

  test.each([
    ["REDIS_URL", { REDIS_URL: "127.0.0.1:6379" }],
    ["REDIS_URL", { REDIS_URL: "http://127.0.0.1:6379" }],
    ["REDIS_URL", { REDIS_URL: "not a url" }],
    ["REDIS_KEY_PREFIX", { REDIS_KEY_PREFIX: "x:" }],
    ["REDIS_KEY_PREFIX", { REDIS_URL: "redis://h", REDIS_KEY_PREFIX: "x".repeat(101) }],
  ])("a bad %s is refused, naming it", (name, env) => {
    expect(() => redisSettings(env)).toThrow(new RegExp(`invalid configuration: ${name}`));
  });
});

describe("LOGIN_FAILURES_PER_ADDRESS", () => {
  test("100 by default, a whole number or off", () => {
    expect(parseLoginLimits({})).toEqual({ failuresPerAddress: 100 });
    expect(parseLoginLimits({ LOGIN_FAILURES_PER_ADDRESS: "7" })).toEqual({ failuresPerAddress: 7 });
    expect(parseLoginLimits({ LOGIN_FAILURES_PER_ADDRESS: "off" })).toEqual({ failuresPerAddress: null });
    expect(() => parseLoginLimits({ LOGIN_FAILURES_PER_ADDRESS: "-1" })).toThrow(/invalid configuration: LOGIN_FAILURES_PER_ADDRESS/);
  });
});
