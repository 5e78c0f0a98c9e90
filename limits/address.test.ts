import { describe, expect, test } from "vitest";
import { addressKey } from "./address";

describe("addressKey", () => {
  test("an IPv4 address is its own key", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey(" 203.0.113.7 ")).toBe("203.0.113.7");
  });

  test("IPv6 addresses are grouped by their /64 network, however they are written", () => {
    const key = addressKey("2001:db8:1:2::1");
    expect(key).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:DB8:1:2:ffff:ffff:ffff:fffe")).toBe(key);
    expect(addressKey("2001:0db8:0001:0002:0:0:0:9")).toBe(key);
    expect(addressKey("2001:db8:1:3::1")).not.toBe(key);
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
  });

  test("an IPv4-mapped IPv6 address counts as its IPv4 address", () => {
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  test("no address is undefined; anything else is kept as written, cut short", () => {
    expect(addressKey(undefined)).toBeUndefined();
    expect(addressKey("  ")).toBeUndefined();
    expect(addressKey("unknown")).toBe("unknown");
    expect(addressKey("x".repeat(1000))).toHaveLength(64);
  });
});
