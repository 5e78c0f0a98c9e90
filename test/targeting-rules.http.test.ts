// Targeting rules over real HTTP: each kind of rule sends its clicks to its URL, the first
// that matches wins, none sends to the link's own URL; edits keep the rules' ids; the
// analytics answer counts clicks per rule; bad rules are 400 naming the rule. Countries
// come from client addresses in the shipped geo database (TRUST_PROXY=on: X-Forwarded-For
// names the address).
import { beforeAll, describe, expect, test, vi } from "vitest";
import { clickCounter } from "../url/click-counting/instance.ts";
import { browserAccept } from "./support/link-client.ts";
import { linkServer } from "./support/link-server.ts";
import type { RedirectRule as Rule } from "../link-rules/redirect-rules.ts";

vi.hoisted(() => {
  process.env.TRUST_PROXY = "on"; // read once, when the configs load: each click names its address
});

const links = linkServer("targeting@example.com");
const { client, shorten } = links;

const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const android = "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36";
const windows = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const inGreatBritain = "81.2.69.142";
const inTheNetherlands = "193.0.6.139";
const inTheUS = "8.8.8.8";

async function linkOf(code: string): Promise<{ rules: Rule[]; originalUrl: string }> {
  const res = await client.request("GET", `/links/${code}`, { token: links.token });
  expect(res.status).toBe(200);
  return (await res.json()) as { rules: Rule[]; originalUrl: string };
}

/** Where GET /:code sends a client with these headers, from `from`: the JSON answer's url. */
async function target(path: string, headers: Record<string, string> = {}, from = inTheUS): Promise<string> {
  const res = await client.request("GET", `/${path}`, { from, headers: { "user-agent": windows, ...headers } });
  const body = (await res.json()) as { url: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.url;
}

const rules = [
  { query: { name: "src", value: "qr" }, url: "https://example.com/qr" },
  { device: "ios", url: "https://apps.example.com/ios" },
  { device: "android", url: "https://apps.example.com/android" },
  { countries: ["gb", "NL"], url: "https://example.com/eu" },
  { languages: ["DE"], url: "https://example.com/de" },
];

describe("where a click goes", () => {
  let code: string;
  beforeAll(async () => {
    code = await shorten({ url: "https://example.com/home", rules });
  });

  test("the link answers its rules, normalised, each with an id", async () => {
    const link = await linkOf(code);
    expect(link.rules.map(({ id: _id, ...r }) => r)).toEqual([
      { query: { name: "src", value: "qr" }, url: "https://example.com/qr" },
      { device: "ios", url: "https://apps.example.com/ios" },
      { device: "android", url: "https://apps.example.com/android" },
      { countries: ["GB", "NL"], url: "https://example.com/eu" },
      { languages: ["de"], url: "https://example.com/de" },
    ]);
    expect(new Set(link.rules.map((r) => r.id)).size).toBe(5);
    for (const r of link.rules) expect(r.id).toMatch(/^[A-Za-z0-9_-]{8}$/);
  });

  test("each kind of rule sends to its URL", async () => {
    expect(await target(`${code}?src=qr`)).toBe("https://example.com/qr?src=qr"); // the query is forwarded, as to any target
    expect(await target(code, { "user-agent": iphone })).toBe("https://apps.example.com/ios");
    expect(await target(code, { "user-agent": android })).toBe("https://apps.example.com/android");
    expect(await target(code, {}, inGreatBritain)).toBe("https://example.com/eu");
    expect(await target(code, {}, inTheNetherlands)).toBe("https://example.com/eu");
    expect(await target(code, { "accept-language": "de-CH, en;q=0.5" })).toBe("https://example.com/de");
  });

  test("the first rule that matches wins", async () => {
    // An iPhone in Great Britain reading German, with ?src=qr: the query rule is first.
    const everything = { "user-agent": iphone, "accept-language": "de" };
    expect(await target(`${code}?src=qr`, everything, inGreatBritain)).toBe("https://example.com/qr?src=qr");
    expect(await target(code, everything, inGreatBritain)).toBe("https://apps.example.com/ios");
    expect(await target(code, { "accept-language": "de" }, inGreatBritain)).toBe("https://example.com/eu");
  });

  test("no rule matches: the link's own URL", async () => {
    expect(await target(code)).toBe("https://example.com/home");
    expect(await target(`${code}?src=mail`, { "accept-language": "en, de;q=0.9" })).toBe("https://example.com/home?src=mail");
  });

  test("a rule's redirect is the link's: its redirect type, query forwarding and indexing", async () => {
    const own = await shorten({ url: "https://example.com/home", redirectType: 308, forwardQuery: false, allowIndexing: true, rules: [rules[0]] });
    const res = await client.request("GET", `/${own}?src=qr`, { from: inTheUS, headers: { accept: browserAccept } });
    expect(res.status).toBe(308);
    expect(res.headers.get("location")).toBe("https://example.com/qr");
    expect(res.headers.get("x-robots-tag")).toBeNull();
    const plain = await client.request("GET", `/${code}?src=qr`, { from: inTheUS, headers: { accept: browserAccept } });
    expect(plain.status).toBe(302);
    expect(plain.headers.get("x-robots-tag")).toBe("noindex");
  });

  test("a browser is redirected to the rule's URL; HEAD answers the same", async () => {
    const res = await client.request("GET", `/${code}`, { from: inTheUS, headers: { accept: browserAccept, "user-agent": iphone } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("https://apps.example.com/ios");
    const head = await client.request("HEAD", `/${code}`, { from: inTheUS, headers: { accept: browserAccept, "user-agent": android } });
    expect(head.status).toBe(302);
    expect(head.headers.get("location")).toBe("https://apps.example.com/android");
  });

  test("rules and a password: the right password sends to the rule's URL", async () => {
    const locked = await shorten({ url: "https://example.com/locked", password: "open sesame", rules: [{ device: "ios", url: "https://example.com/ios" }] });
    const res = await client.request("GET", `/${locked}`, { from: inTheUS, headers: { "user-agent": iphone, "x-link-password": "open sesame" } });
    expect(await res.json()).toEqual({ url: "https://example.com/ios" });
  });
});

describe("changing a link's rules", () => {
  test("ids sent back are kept, new rules get new ids; the change answers at once; null clears", async () => {
    const code = await shorten({ url: "https://example.com/own", rules: [{ device: "ios", url: "https://example.com/ios" }] });
    expect(await target(code, { "user-agent": iphone })).toBe("https://example.com/ios"); // cached now
    const [ios] = (await linkOf(code)).rules;
    const res = await client.request(
      "PATCH",
      `/links/${code}`,
      { token: links.token },
      JSON.stringify({ rules: [{ languages: ["fr"], url: "https://example.com/fr" }, { ...ios, url: "https://example.com/ios2" }] }),
    );
    const changed = (await res.json()) as { rules: Rule[] };
    expect(res.status, JSON.stringify(changed)).toBe(200);
    expect(changed.rules[1]).toEqual({ id: ios!.id, device: "ios", url: "https://example.com/ios2" });
    expect(changed.rules[0]!.id).not.toBe(ios!.id);
    expect(await target(code, { "user-agent": iphone })).toBe("https://example.com/ios2");
    expect(await target(code, { "accept-language": "fr" })).toBe("https://example.com/fr");

    const cleared = await client.request("PATCH", `/links/${code}`, { token: links.token }, JSON.stringify({ rules: null }));
    expect(((await cleared.json()) as { rules: Rule[] }).rules).toEqual([]);
    expect(await target(code, { "user-agent": iphone })).toBe("https://example.com/own");
  });

  test("a link with no rules answers rules: []", async () => {
    const code = await shorten({ url: "https://example.com/plain" });
    expect((await linkOf(code)).rules).toEqual([]);
  });
});

describe("analytics per rule", () => {
  test("GET /:code/analytics counts each rule's clicks; other: the clicks no rule sent", async () => {
    const code = await shorten({
      url: "https://example.com/counted",
      rules: [
        { device: "ios", url: "https://example.com/ios" },
        { countries: ["GB"], url: "https://example.com/gb" },
      ],
    });
    const [ios, gb] = (await linkOf(code)).rules;
    for (let i = 0; i < 3; i++) await target(code, { "user-agent": iphone });
    for (let i = 0; i < 2; i++) await target(code, {}, inGreatBritain);
    await target(code);
    await clickCounter.flush();
    const res = await client.request("GET", `/${code}/analytics`, { token: links.token });
    const answer = (await res.json()) as { totals: { all: number }; rules: { top: { value: string; humans: number; bots: number }[]; other: { humans: number } } };
    expect(res.status, JSON.stringify(answer)).toBe(200);
    expect(answer.totals.all).toBe(6);
    expect(answer.rules.top).toEqual([
      { value: ios!.id, humans: 3, bots: 0 },
      { value: gb!.id, humans: 2, bots: 0 },
    ]);
    expect(answer.rules.other).toEqual({ humans: 1, bots: 0 });
  });
});

describe("bad rules", () => {
  test.each([
    ["no condition", [{ url: "https://example.com/x" }], /^rules\[0\] must have exactly one of device, countries, languages, query/],
    // The runtime's schema check refuses a device not in the type first, naming the field.
    ["an unknown device", [{ device: "ios", url: "https://example.com/a" }, { device: "tv", url: "https://example.com/x" }], /^unable to decode request body: rules\[1\]\.device: invalid type: string "tv"/],
    ["a country name", [{ countries: ["Germany"], url: "https://example.com/x" }], /^rules\[0\]\.countries\[0\]/],
    ["a language tag", [{ languages: ["de-CH"], url: "https://example.com/x" }], /^rules\[0\]\.languages\[0\]/],
    ["an empty query name", [{ query: { name: "" }, url: "https://example.com/x" }], /^rules\[0\]\.query\.name/],
    ["an ftp URL", [{ device: "ios", url: "ftp://example.com/x" }], /^rules\[0\]\.url: url must use http or https/],
    ["21 rules", Array.from({ length: 21 }, () => ({ device: "ios", url: "https://example.com/x" })), /^rules: at most 20 rules/],
  ])("%s: 400 naming the rule", async (_name, rules, message) => {
    const res = await client.post("/shorten", { url: "https://example.com/ok", rules }, { token: links.token, from: client.nextAddress() });
    const error = (await res.json()) as { code: string; message: string };
    expect(res.status).toBe(400);
    expect(error.code).toBe("invalid_argument");
    expect(error.message).toMatch(message);
  });

  test("PATCH and a bulk item refuse them too", async () => {
    const code = await shorten({ url: "https://example.com/patched" });
    const res = await client.request("PATCH", `/links/${code}`, { token: links.token }, JSON.stringify({ rules: [{ device: "ios", countries: ["DE"], url: "https://example.com/x" }] }));
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/^rules\[0\] must have exactly one/);
    const bulk = await client.post(
      "/links/bulk",
      { items: [{ url: "https://example.com/b1", rules: [{ device: "android", url: "https://example.com/a" }] }, { url: "https://example.com/b2", rules: [{ url: "https://example.com/x" }] }] },
      { token: links.token, from: client.nextAddress() },
    );
    const answer = (await bulk.json()) as { results: ({ code: string } | { error: { code: string; message: string } })[] };
    expect(bulk.status, JSON.stringify(answer)).toBe(200);
    expect(answer.results[1]).toMatchObject({ error: { code: "invalid_argument", message: expect.stringMatching(/^rules\[0\] must have exactly one/) } });
    const made = answer.results[0] as { code: string };
    expect(await target(made.code, { "user-agent": android })).toBe("https://example.com/a");
  });
});
