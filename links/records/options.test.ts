import { describe, expect, test } from "vitest";
import { checkAlias, checkExpiresAt, checkFlag, checkMaxClicks, checkPassword, checkRedirectType, checkStartsAt } from "./options";

describe("checkAlias", () => {
  test.each(["abc", "Spring-Sale_2030", "x".repeat(64), "a_pp"])("%s is an alias", (alias) => {
    expect(checkAlias(alias)).toBe(alias);
  });

  test.each(["ab", "x".repeat(65), "a.b", "a/b", "ä-b-c", "a b c"])("%j is refused for its shape", (alias) => {
    expect(() => checkAlias(alias)).toThrow(/^alias must be 3 to 64 characters/);
  });

  test.each(["shorten", "ORDERS", "_app", "_APP", "links", "healthz", "__encore"])("%s is reserved in any case", (alias) => {
    expect(() => checkAlias(alias)).toThrow(/is reserved/);
  });
});

test("an end date must be a valid instant after now", () => {
  const now = Date.parse("2030-01-01T00:00:00Z");
  expect(checkExpiresAt(new Date(now + 1), now).getTime()).toBe(now + 1);
  expect(() => checkExpiresAt(new Date(now), now)).toThrow(/in the future/);
  expect(() => checkExpiresAt(new Date("nonsense"), now)).toThrow(/must be a date and time/);
});

test("a click budget is a whole number from 1 to 1e9; a password 1 to 128 characters", () => {
  expect(checkMaxClicks(1)).toBe(1);
  expect(checkMaxClicks(1e9)).toBe(1e9);
  for (const bad of [0, -1, 1.5, 1e9 + 1, Number.NaN]) expect(() => checkMaxClicks(bad)).toThrow(/maxClicks/);
  expect(checkPassword("p".repeat(128))).toHaveLength(128);
  expect(() => checkPassword("")).toThrow(/password/);
  expect(() => checkPassword("p".repeat(129))).toThrow(/password/);
});

test("a redirect type is 301, 302, 307 or 308; a start a valid instant before the end", () => {
  for (const ok of [301, 302, 307, 308]) expect(checkRedirectType(ok)).toBe(ok);
  for (const bad of [303, 300, 200, 302.5, Number.NaN]) expect(() => checkRedirectType(bad)).toThrow(/^redirectType must be one of 301, 302, 307, 308/);
  const at = new Date("2030-01-01T00:00:00Z");
  expect(checkStartsAt(at)).toBe(at);
  expect(checkStartsAt(new Date(0))).toEqual(new Date(0)); // past: starts at once
  expect(() => checkStartsAt(new Date("nonsense"))).toThrow(/^startsAt must be a date and time/);
  expect(() => checkStartsAt(at, at)).toThrow(/^startsAt must be before expiresAt/);
  expect(checkStartsAt(at, new Date(at.getTime() + 1))).toBe(at);
  expect(() => checkFlag("forwardQuery", "yes" as unknown as boolean)).toThrow(/^forwardQuery must be true or false/);
});
