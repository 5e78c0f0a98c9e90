import { describe, expect, test } from "vitest";
import { RateLimiter } from "./rate-limiter";

/** A limiter on a clock the test moves by hand. */
function limiter(limit: number, windowMs: number, maxKeys = 100) {
  const clock = { now: 1_000_000 };
  return { clock, limiter: new RateLimiter({ limit, windowMs, maxKeys, now: () => clock.now }) };
}

describe("rate limiter", () => {
  test("allows `limit` hits, then says how long until the oldest leaves the window", () => {
    const { clock, limiter: l } = limiter(3, 60_000);
    for (let i = 0; i < 3; i++) {
      expect(l.retryAfterMs("k")).toBe(0);
      l.hit("k");
      clock.now += 1_000;
    }
    // Hits at 0 s, 1 s, 2 s; now 3 s: the first leaves the window at 60 s.
    expect(l.retryAfterMs("k")).toBe(57_000);
  });

  test("the window slides: each hit leaving it frees one more", () => {
    const { clock, limiter: l } = limiter(2, 10_000);
    l.hit("k");
    clock.now += 4_000;
    l.hit("k");
    clock.now += 6_000; // the first hit is exactly 10 s old: out of the window
    expect(l.retryAfterMs("k")).toBe(0);
    l.hit("k");
    expect(l.retryAfterMs("k")).toBe(4_000); // the second hit, at 4 s, leaves at 14 s
  });

  test("keys are counted apart", () => {
    const { limiter: l } = limiter(1, 10_000);
    l.hit("a");
    expect(l.retryAfterMs("a")).toBeGreaterThan(0);
    expect(l.retryAfterMs("b")).toBe(0);
  });

  test("reset forgets a key's hits", () => {
    const { limiter: l } = limiter(2, 10_000);
    l.hit("k");
    l.hit("k");
    l.reset("k");
    expect(l.retryAfterMs("k")).toBe(0);
    expect(l.size).toBe(0);
  });

  test("keys whose hits all left the window are dropped", () => {
    const { clock, limiter: l } = limiter(5, 10_000);
    l.hit("old-1");
    l.hit("old-2");
    clock.now += 5_000;
    l.hit("recent");
    clock.now += 5_000; // old-1 and old-2 are now 10 s old
    expect(l.retryAfterMs("anything")).toBe(0);
    expect(l.size).toBe(1);
    clock.now += 5_000;
    l.hit("new");
    expect(l.size).toBe(1); // "recent" went too
  });

  test("at most maxKeys keys are tracked: the least recently hit is forgotten first", () => {
    const { clock, limiter: l } = limiter(1, 60_000, 3);
    for (const key of ["a", "b", "c"]) {
      l.hit(key);
      clock.now += 1;
    }
    l.hit("a"); // a over its limit, and now the most recently hit (it stays blocked)
    clock.now += 1;
    l.hit("d");
    expect(l.size).toBe(3);
    expect(l.retryAfterMs("b")).toBe(0); // b was the least recently hit: forgotten
    expect(l.retryAfterMs("a")).toBeGreaterThan(0);
    expect(l.retryAfterMs("c")).toBeGreaterThan(0);
    expect(l.retryAfterMs("d")).toBeGreaterThan(0);
  });

  test("a key holds at most `limit` hit times, however often it is hit", () => {
    const { clock, limiter: l } = limiter(3, 60_000);
    for (let i = 0; i < 1_000; i++) {
      l.hit("busy");
      clock.now += 1;
    }
    // Only the last 3 hits (at 997, 998, 999 ms) are kept: free again 60 s after the first of them.
    expect(l.retryAfterMs("busy")).toBe(997 + 60_000 - 1_000);
  });

  test.each([
    { limit: 0, windowMs: 1, maxKeys: 1 },
    { limit: 1, windowMs: 1.5, maxKeys: 1 },
    { limit: 1, windowMs: 1, maxKeys: -1 },
  ])("settings that are not whole numbers of at least 1 are refused: %o", (options) => {
    expect(() => new RateLimiter(options)).toThrow(RangeError);
  });
});
