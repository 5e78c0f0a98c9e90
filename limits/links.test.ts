import { describe, expect, test } from "vitest";
import { APIError } from "encore.dev/api";
import { checkTargetHost, deniedEntryFor, parseLinkLimits } from "./links";

describe("parseLinkLimits", () => {
  test("defaults for a public instance: 20 per anonymous address, 200 per user, in 10 minutes, no denied host", () => {
    expect(parseLinkLimits({})).toEqual({ perAddress: 20, perUser: 200, windowSeconds: 600, deniedHosts: [] });
  });

  test("off turns a limit off", () => {
    expect(parseLinkLimits({ SHORTEN_LIMIT_PER_ADDRESS: "off", SHORTEN_LIMIT_PER_USER: "OFF" })).toMatchObject({ perAddress: null, perUser: null });
  });

  test.each([
    ["SHORTEN_LIMIT_PER_ADDRESS", "0"],
    ["SHORTEN_LIMIT_PER_ADDRESS", "1.5"],
    ["SHORTEN_LIMIT_PER_USER", "many"],
    ["SHORTEN_LIMIT_WINDOW_SECONDS", "0"],
    ["SHORTEN_LIMIT_WINDOW_SECONDS", "off"],
    ["DENIED_TARGET_HOSTS", "https://evil.example/"],
    ["DENIED_TARGET_HOSTS", "evil.example:8080"],
    ["DENIED_TARGET_HOSTS", "*.evil.example"],
    ["DENIED_TARGET_HOSTS", "evil.example/path"],
  ])("%s=%s is refused, naming the variable", (name, value) => {
    expect(() => parseLinkLimits({ [name]: value })).toThrow(new RegExp(`invalid configuration: ${name}`));
  });

  test("denied hosts are normalised as WHATWG URL does: case, IDN to punycode, trailing dot", () => {
    expect(parseLinkLimits({ DENIED_TARGET_HOSTS: " Evil.Example., bücher.example\n[::1] 10.0.0.1" }).deniedHosts).toEqual([
      "evil.example",
      "xn--bcher-kva.example",
      "[::1]",
      "10.0.0.1",
    ]);
  });
});

describe("denied target hosts", () => {
  const denied = ["evil.example", "xn--bcher-kva.example"];

  test("a host matches itself and its subdomains, not names that merely end alike", () => {
    expect(deniedEntryFor("evil.example", denied)).toBe("evil.example");
    expect(deniedEntryFor("a.b.evil.example", denied)).toBe("evil.example");
    expect(deniedEntryFor("notevil.example", denied)).toBeUndefined();
    expect(deniedEntryFor("evil.example.org", denied)).toBeUndefined();
  });

  test.each(["https://EVIL.example/x", "http://www.evil.example./", "https://bücher.example/", "https://xn--bcher-kva.example/", "https://user:pw@evil.example:8443/p?q"])(
    "%s is refused with 400 invalid_argument",
    (url) => {
      const err = (() => {
        try {
          checkTargetHost(new URL(url).href, denied);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(APIError);
      expect(err).toMatchObject({ code: "invalid_argument", message: expect.stringMatching(/must not point at (evil\.example|xn--bcher-kva\.example)/) });
    },
  );
});

describe("hosts compared as DNS sees them", () => {
  test.each(["http://evil.example../", "http://[::ffff:10.0.0.1]/", "http://[::FFFF:a00:1]:8080/"])("%s is refused like its bare form", (url) => {
    expect(() => checkTargetHost(new URL(url).href, ["evil.example", "10.0.0.1"])).toThrow(/must not point at/);
  });
});
