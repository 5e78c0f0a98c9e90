import { describe, expect, test } from "vitest";
import { parseConnectTo } from "./check-config";

describe("DOMAIN_CHECK_CONNECT_TO", () => {
  test("unset or empty: the domain's own address", () => {
    expect(parseConnectTo({})).toBeNull();
    expect(parseConnectTo({ DOMAIN_CHECK_CONNECT_TO: " " })).toBeNull();
  });

  test("host:port, an IPv6 address in brackets", () => {
    expect(parseConnectTo({ DOMAIN_CHECK_CONNECT_TO: "127.0.0.1:4000" })).toEqual({ host: "127.0.0.1", port: 4000 });
    expect(parseConnectTo({ DOMAIN_CHECK_CONNECT_TO: "[::1]:8080" })).toEqual({ host: "::1", port: 8080 });
    expect(parseConnectTo({ DOMAIN_CHECK_CONNECT_TO: "app:80" })).toEqual({ host: "app", port: 80 });
  });

  test("anything else is refused, naming the variable", () => {
    for (const bad of ["127.0.0.1", ":4000", "app:0", "app:65536", "http://app:80", "[nope]:80", "::1:80"]) {
      expect(() => parseConnectTo({ DOMAIN_CHECK_CONNECT_TO: bad }), bad).toThrow(/DOMAIN_CHECK_CONNECT_TO must be host:port/);
    }
  });
});
