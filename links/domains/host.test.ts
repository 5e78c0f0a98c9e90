import { describe, expect, test } from "vitest";
import { checkHost } from "./host";

describe("a custom domain's host", () => {
  test("lower case, an IDN in punycode, a trailing dot dropped", () => {
    expect(checkHost("Go.Example.COM", "sho.rt")).toBe("go.example.com");
    expect(checkHost("bücher.example.", "sho.rt")).toBe("xn--bcher-kva.example");
  });

  test("no IP address, port, path, localhost, single label or the instance's own host", () => {
    for (const bad of ["127.0.0.1", "[::1]", "::1", "1.2.3.4.5", "0x7f.1", "example.com:80", "example.com/x", "user@example.com", "localhost", "a.localhost", "com", "-a.example", "a_b.example", "sho.rt", "SHO.RT", ""]) {
      expect(() => checkHost(bad, "sho.rt"), bad).toThrow(/host/);
    }
  });
});
