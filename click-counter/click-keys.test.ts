import { describe, expect, test } from "vitest";
import { clickKey, codeOfKey, detailsOfKey, internedClickKey } from "./click-keys";

describe("click keys", () => {
  test("a key gives back its code and details; a bare code has no details", () => {
    const key = clickKey("k3x9qa", "2026-11-28T10\tnews.ycombinator.com\tDE");
    expect(codeOfKey(key)).toBe("k3x9qa");
    expect(detailsOfKey(key)).toBe("2026-11-28T10\tnews.ycombinator.com\tDE");
    expect(clickKey("k3x9qa", undefined)).toBe("k3x9qa");
    expect(codeOfKey("k3x9qa")).toBe("k3x9qa");
    expect(detailsOfKey("k3x9qa")).toBeUndefined();
  });

  test("an interned key equals the plain one, and stays right past the point where the table is forgotten", () => {
    const details = "2026-11-28T10\t\tFR";
    for (let i = 0; i < 100_050; i++) {
      const code = `c${i}`;
      expect(internedClickKey(code, details)).toBe(clickKey(code, details));
    }
    expect(codeOfKey(internedClickKey("c7", details))).toBe("c7");
  });
});
