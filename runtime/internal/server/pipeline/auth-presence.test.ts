import { describe, expect, test } from "vitest";
import { carriesHeader, carriesQueryParam } from "./auth-presence.ts";

describe("whether a request carries an auth parameter", () => {
  test("header names match in any case, values are not looked at", () => {
    const raw = ["Host", "sho.rt", "AUTHORIZATION", "", "Accept", "*/*"];
    expect(carriesHeader(raw, ["authorization"])).toBe(true);
    expect(carriesHeader(raw, ["x-api-key", "authorization"])).toBe(true);
    expect(carriesHeader(raw, ["x-api-key"])).toBe(false);
    // Same length, other name: cache-control is 13 characters, like authorization.
    expect(carriesHeader(["Cache-Control", "no-cache"], ["authorization"])).toBe(false);
  });

  test.each([
    ["/me?access_token=x", true],
    ["/me?a=1&access_token", true],
    ["/me?a=1&access_token=&b", true],
    ["/me?access%5Ftoken=x", true],
    ["/me?access_token_2=x", false],
    ["/me?x=access_token", false],
    ["/me/access_token", false],
    ["/me?", false],
    ["/me?&&=x", false],
    ["/me?%zz=1", false],
  ])("%s: %s", (url, expected) => {
    expect(carriesQueryParam(url, ["access_token"])).toBe(expected);
  });
});
