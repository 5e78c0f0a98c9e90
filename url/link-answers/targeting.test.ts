import type { IncomingMessage } from "node:http";
import { describe, expect, test } from "vitest";
import { compileTargeting } from "../link-cache/targeting-rules";
import { matchingRule } from "./targeting";
import { platformOf } from "../../visitors/platforms";
import { preferredLanguage } from "../../visitors/languages";
import type { RedirectRule } from "../../link-rules/redirect-rules";

const agents = {
  iPhone: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  iPad: "Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1",
  android: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
  androidTablet: "Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  windows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
  mac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
  linux: "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
  kaiOS: "Mozilla/5.0 (Mobile; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5",
};

describe("platformOf", () => {
  test.each([
    ["iPhone", "ios"],
    ["iPad", "ios"],
    ["android", "android"],
    ["androidTablet", "android"],
    ["windows", "desktop"],
    ["mac", "desktop"],
    ["linux", "desktop"],
  ] as const)("%s is %s", (name, platform) => expect(platformOf(agents[name])).toBe(platform));

  test("a phone of another kind, a script, or no agent, is no platform a rule names", () => {
    expect(platformOf(agents.kaiOS)).toBeUndefined();
    expect(platformOf("curl/8.5.0")).toBeUndefined();
    expect(platformOf("node")).toBeUndefined();
    expect(platformOf(undefined)).toBeUndefined();
    expect(platformOf("")).toBeUndefined();
  });
});

describe("preferredLanguage", () => {
  test("the first acceptable language in q order, as its primary subtag", () => {
    expect(preferredLanguage("de-CH,de;q=0.9,en;q=0.8")).toBe("de");
    expect(preferredLanguage("en;q=0.5, fr-CA;q=0.9, de;q=0.7")).toBe("fr");
    expect(preferredLanguage("EN-gb")).toBe("en");
  });
  test("ties keep the header's order; * and q=0 are skipped", () => {
    expect(preferredLanguage("it, es")).toBe("it");
    expect(preferredLanguage("*, pt;q=0.5")).toBe("pt");
    expect(preferredLanguage("ja;q=0, ko;q=0.1")).toBe("ko");
  });
  test("none acceptable, or no header", () => {
    expect(preferredLanguage("*")).toBeUndefined();
    expect(preferredLanguage("de;q=0")).toBeUndefined();
    expect(preferredLanguage(undefined)).toBeUndefined();
    expect(preferredLanguage("")).toBeUndefined();
  });
  test("the same header twice gives the same answer (remembered)", () => {
    expect(preferredLanguage("nl-BE, fr;q=0.5")).toBe("nl");
    expect(preferredLanguage("nl-BE, fr;q=0.5")).toBe("nl");
    expect(preferredLanguage("x;q=0")).toBeUndefined();
    expect(preferredLanguage("x;q=0")).toBeUndefined();
  });
});

/** A raw request as Node gives one: rawHeaders in pairs, the peer's address. */
function request(url: string, headers: Record<string, string> = {}, remoteAddress = "127.0.0.1"): IncomingMessage {
  const rawHeaders = Object.entries(headers).flat();
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return { url, rawHeaders, headers: lower, socket: { remoteAddress } } as unknown as IncomingMessage;
}

const rules: RedirectRule[] = [
  { id: "q", query: { name: "src", value: "qr" }, url: "https://example.com/qr" },
  { id: "qa", query: { name: "promo" }, url: "https://example.com/promo" },
  { id: "ios", device: "ios", url: "https://apps.apple.com/app" },
  { id: "and", device: "android", url: "https://play.google.com/app" },
  { id: "geo", countries: ["GB", "NL"], url: "https://example.com/eu" },
  { id: "lang", languages: ["de", "fr"], url: "https://example.com/de" },
  { id: "desk", device: "desktop", url: "https://example.com/desktop" },
];
const compiled = compileTargeting(rules, (url) => ({ url }))!;
const idFor = (req: IncomingMessage, trustProxy = false) => matchingRule(req, compiled, trustProxy)?.id;

describe("matchingRule", () => {
  test("no rules stored: nothing compiled", () => {
    expect(compileTargeting(null, (url) => url)).toBeNull();
    expect(compileTargeting([], (url) => url)).toBeNull();
    expect(compileTargeting("not a list", (url) => url)).toBeNull();
  });

  test("a rule's answer is prepared once, with its lists as sets", () => {
    expect(compiled[2]!.link).toEqual({ url: "https://apps.apple.com/app" });
    expect(compiled[4]!.countries).toEqual(new Set(["GB", "NL"]));
    expect(compiled[5]!.languages).toEqual(new Set(["de", "fr"]));
  });

  test("device", () => {
    expect(idFor(request("/abc", { "User-Agent": agents.iPhone }))).toBe("ios");
    expect(idFor(request("/abc", { "User-Agent": agents.iPad }))).toBe("ios");
    expect(idFor(request("/abc", { "User-Agent": agents.android }))).toBe("and");
    expect(idFor(request("/abc", { "User-Agent": agents.windows }))).toBe("desk");
  });

  test("query parameter: present, or with the value asked for", () => {
    expect(idFor(request("/abc?src=qr", { "User-Agent": agents.iPhone }))).toBe("q");
    expect(idFor(request("/abc?src=mail", { "User-Agent": agents.iPhone }))).toBe("ios");
    expect(idFor(request("/abc?x=1&promo", { "User-Agent": agents.iPhone }))).toBe("qa");
    expect(idFor(request("/abc?promo=spring"))).toBe("qa");
    expect(idFor(request("/abc?Promo=1"))).toBeUndefined(); // names are exact
  });

  test("country of the client's address: the peer's, or with TRUST_PROXY the last X-Forwarded-For entry", () => {
    expect(idFor(request("/abc", {}, "81.2.69.142"))).toBe("geo"); // GB
    expect(idFor(request("/abc", { "X-Forwarded-For": "81.2.69.142" }, "127.0.0.1"))).toBeUndefined();
    expect(idFor(request("/abc", { "X-Forwarded-For": "8.8.8.8, 193.0.6.139" }, "127.0.0.1"), true)).toBe("geo"); // NL
    expect(idFor(request("/abc", { "X-Forwarded-For": "193.0.6.139, 8.8.8.8" }, "127.0.0.1"), true)).toBeUndefined(); // US
  });

  test("language: the visitor's most preferred one", () => {
    expect(idFor(request("/abc", { "Accept-Language": "de-AT, en;q=0.8" }))).toBe("lang");
    expect(idFor(request("/abc", { "Accept-Language": "en, fr;q=0.9" }))).toBeUndefined();
    expect(idFor(request("/abc", { "Accept-Language": "en;q=0.4, fr;q=0.9" }))).toBe("lang");
  });

  test("the first rule that matches wins, in the list's order", () => {
    // An iPhone in Great Britain reading German with ?promo: the query rule comes first.
    const all = { "User-Agent": agents.iPhone, "Accept-Language": "de" };
    expect(idFor(request("/abc?promo=1", all, "81.2.69.142"))).toBe("qa");
    expect(idFor(request("/abc", all, "81.2.69.142"))).toBe("ios");
    const reversed = compileTargeting([...rules].reverse(), (url) => url)!;
    expect(matchingRule(request("/abc?promo=1", all, "81.2.69.142"), reversed, false)?.id).toBe("lang");
  });

  test("nothing matches: undefined (the link's own URL)", () => {
    expect(idFor(request("/abc", { "User-Agent": agents.kaiOS, "Accept-Language": "en" }, "8.8.8.8"))).toBeUndefined();
    expect(idFor(request("/abc"))).toBeUndefined();
  });
});
