import { describe, expect, test } from "vitest";
import { parseUrlConfig } from "./config";

describe("url service configuration", () => {
  test("defaults: a 100,000-entry cache, clicks written every 100 ms, no QR codes", () => {
    expect(parseUrlConfig({})).toEqual({ cacheSize: 100_000, clickFlushIntervalMs: 100, qrCodes: false, requireLoginToShorten: false });
  });

  test("QR_CODES=on turns the QR-code extension on", () => {
    expect(parseUrlConfig({ QR_CODES: "on" }).qrCodes).toBe(true);
    expect(parseUrlConfig({ QR_CODES: "Off" }).qrCodes).toBe(false);
  });

  test("0 selects a write per click", () => {
    expect(parseUrlConfig({ CLICK_FLUSH_INTERVAL_MS: "0" }).clickFlushIntervalMs).toBe(0);
  });

  test("the longest interval Node's timers can wait is accepted", () => {
    expect(parseUrlConfig({ CLICK_FLUSH_INTERVAL_MS: "2147483647" }).clickFlushIntervalMs).toBe(2_147_483_647);
  });

  test.each([
    ["URL_CACHE_SIZE", "0"],
    ["URL_CACHE_SIZE", "lots"],
    ["CLICK_FLUSH_INTERVAL_MS", "-5"],
    ["CLICK_FLUSH_INTERVAL_MS", "1.5"],
    ["CLICK_FLUSH_INTERVAL_MS", "2147483648"],
    ["QR_CODES", "yes please"],
    ["REQUIRE_LOGIN_TO_SHORTEN", "1"],
  ])("a bad %s (%s) is an error naming it", (name, value) => {
    expect(() => parseUrlConfig({ [name]: value })).toThrowError(new RegExp(`^invalid configuration: ${name} `));
  });
});
