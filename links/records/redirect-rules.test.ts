import { describe, expect, test } from "vitest";
import { checkRedirectRules, checkRuleList, withRuleIds } from "./redirect-rules";
import type { RedirectRuleInput } from "../../link-rules/redirect-rules";

const base = "https://sho.rt";
const check = (rules: RedirectRuleInput[], known?: Set<string>) => checkRedirectRules(rules, base, ["denied.example"], known);

describe("checkRedirectRules", () => {
  test("normalises: countries upper case, languages lower case, each once; URLs as a target is", () => {
    const [a, b, c] = check([
      { countries: ["de", "AT", "de"], url: "https://Example.com" },
      { languages: ["DE", "fr"], url: "https://example.com/fr" },
      { query: { name: "src", value: "qr" }, url: "https://example.com/qr" },
    ]);
    expect(a).toMatchObject({ countries: ["DE", "AT"], url: "https://example.com/" });
    expect(b).toMatchObject({ languages: ["de", "fr"] });
    expect(c).toMatchObject({ query: { name: "src", value: "qr" } });
    expect(a!.id).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(new Set([a!.id, b!.id, c!.id]).size).toBe(3);
  });

  test("an id the link has is kept, once; any other id is replaced", () => {
    const [a, b, c] = check(
      [
        { id: "keepMe12", device: "ios", url: "https://example.com/1" },
        { id: "keepMe12", device: "android", url: "https://example.com/2" },
        { id: "invented", device: "desktop", url: "https://example.com/3" },
      ],
      new Set(["keepMe12"]),
    );
    expect(a!.id).toBe("keepMe12");
    expect(b!.id).not.toBe("keepMe12");
    expect(c!.id).not.toBe("invented");
  });

  test("a change checks first and gives the ids once the link is read", () => {
    const listed = checkRuleList([{ id: "old1", device: "ios", url: "https://example.com/1" }, { device: "ios", url: "https://example.com/2" }], base, []);
    expect(listed.map((r) => r.id)).toEqual(["old1", ""]);
    const [a, b] = withRuleIds(listed, new Set(["old1"]));
    expect(a!.id).toBe("old1");
    expect(b!.id).toMatch(/^[A-Za-z0-9_-]{8}$/);
  });

  test.each<[string, RedirectRuleInput[], RegExp]>([
    ["more than 20", Array.from({ length: 21 }, () => ({ device: "ios" as const, url: "https://example.com" })), /^rules: at most 20 rules/],
    ["no condition", [{ url: "https://example.com" }], /^rules\[0\] must have exactly one of device, countries, languages, query, got none/],
    ["two conditions", [{ device: "ios", countries: ["DE"], url: "https://example.com" }], /^rules\[0\] must have exactly one .* got device, countries/],
    ["an unknown device", [{ device: "tv" as "ios", url: "https://example.com" }], /^rules\[0\]\.device must be one of ios, android, desktop/],
    ["a country not alpha-2", [{ device: "ios", url: "https://example.com" }, { countries: ["DEU"], url: "https://example.com" }], /^rules\[1\]\.countries\[0\] must be one of ISO 3166/],
    ["no countries", [{ countries: [], url: "https://example.com" }], /^rules\[0\]\.countries must list 1 to 50/],
    ["51 countries", [{ countries: Array.from({ length: 51 }, () => "DE"), url: "https://example.com" }], /^rules\[0\]\.countries: at most 50/],
    ["a language tag, not a primary subtag", [{ languages: ["de-CH"], url: "https://example.com" }], /^rules\[0\]\.languages\[0\] must be one of primary language subtags/],
    ["51 languages", [{ languages: Array.from({ length: 51 }, () => "de"), url: "https://example.com" }], /^rules\[0\]\.languages: at most 50/],
    ["an empty query name", [{ query: { name: "" }, url: "https://example.com" }], /^rules\[0\]\.query\.name must be 1 to 100 characters/],
    ["a query name of 101", [{ query: { name: "x".repeat(101) }, url: "https://example.com" }], /^rules\[0\]\.query\.name must be 1 to 100/],
    ["a javascript: url", [{ device: "ios", url: "javascript:alert(1)" }], /^rules\[0\]\.url: url must use http or https/],
    ["a url to the service", [{ device: "ios", url: "https://sho.rt/abc" }], /^rules\[0\]\.url: url must not point at this service/],
    ["a denied host", [{ device: "ios", url: "https://www.denied.example/x" }], /^rules\[0\]\.url: url must not point at denied\.example/],
    ["no url", [{ device: "ios" } as RedirectRuleInput], /^rules\[0\]\.url is required/],
  ])("%s is refused, naming the rule", (_name, rules, message) => {
    expect(() => check(rules)).toThrow(message);
    try {
      check(rules);
    } catch (err) {
      expect(err).toMatchObject({ code: "invalid_argument" });
    }
  });
});
