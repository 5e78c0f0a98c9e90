import { describe, expect, test } from "vitest";
import { countryOf } from "./countries";
import { cleanValue, decodeDetails, encodeDetails, unknown } from "./dimensions";
import { referrerOf } from "./referrers";

describe("countryOf (the shipped IP-to-country database)", () => {
  test.each([
    ["8.8.8.8", "US"],
    ["81.2.69.142", "GB"],
    ["193.0.6.139", "NL"],
    ["133.242.0.3", "JP"],
    ["2001:4860:4860::8888", "US"],
    ["::ffff:81.2.69.142", "GB"],
  ])("%s is in %s", (ip, country) => expect(countryOf(ip)).toBe(country));

  test.each([["127.0.0.1"], ["10.1.2.3"], ["192.168.0.1"], ["::1"], ["169.254.1.1"], ["fd00::1"], ["100.64.0.1"], ["not an address"], [""]])("%s is unknown", (ip) => {
    expect(countryOf(ip)).toBe(unknown);
  });
});

describe("referrerOf", () => {
  test("the host only, lower case, without www.", () => {
    expect(referrerOf("https://news.ycombinator.com/item?id=1")).toBe("news.ycombinator.com");
    expect(referrerOf("https://WWW.Example.COM/path/with/personal/data")).toBe("example.com");
  });
  test("none is direct; not an http(s) URL is unknown", () => {
    expect(referrerOf(undefined)).toBe("direct");
    expect(referrerOf("")).toBe("direct");
    expect(referrerOf("android-app://com.slack")).toBe(unknown);
    expect(referrerOf("::::")).toBe(unknown);
  });
});

describe("details as text", () => {
  test("round trip", () => {
    const d = { hour: 493_000, bot: true, referrer: "t.co", country: "US", browser: "curl", os: unknown, device: "bot" };
    expect(decodeDetails(encodeDetails(d), 1)).toEqual(d);
  });
  test("the targeting rule that sent a click comes last, and only when one did", () => {
    const d = { hour: 493_000, bot: false, referrer: "direct", country: "DE", browser: "Chrome", os: "Android", device: "mobile" };
    expect(encodeDetails({ ...d, rule: "aB3_x-9Z" })).toBe(`${encodeDetails(d)}\taB3_x-9Z`);
    expect(decodeDetails(encodeDetails({ ...d, rule: "aB3_x-9Z" }), 1)).toEqual({ ...d, rule: "aB3_x-9Z" });
    expect(decodeDetails(encodeDetails(d), 1)).toEqual(d);
  });
  test("no details (a journal from before analytics) read as unknown, a human's, in the hour given", () => {
    expect(decodeDetails(undefined, 42)).toEqual({ hour: 42, bot: false, referrer: unknown, country: unknown, browser: unknown, os: unknown, device: unknown });
  });
  test("a value never carries the separator, a line break or more than 100 characters", () => {
    expect(cleanValue("a\tb\nc")).toBe("a b c");
    expect(cleanValue("x".repeat(500))).toHaveLength(100);
    expect(cleanValue("   ")).toBe(unknown);
  });
});
