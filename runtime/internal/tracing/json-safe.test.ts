import { describe, expect, test } from "vitest";
import { capText, jsonSafe } from "./json-safe.ts";

describe("log fields as a trace keeps them", () => {
  test("dates, buffers, errors, bigints, non-finite numbers and cycles become plain JSON; functions and undefined go", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic.self = cyclic;
    const safe = jsonSafe({
      when: new Date(0),
      bytes: Buffer.from("hello"),
      err: new TypeError("bad input"),
      big: 12345678901234567890n,
      inf: Infinity,
      fn: () => 1,
      gone: undefined,
      url: new URL("https://sho.rt/a"),
      cyclic,
      list: [1, undefined, "x"],
    });
    expect(safe).toEqual({
      when: "1970-01-01T00:00:00.000Z",
      bytes: "[5 bytes]",
      err: { name: "TypeError", message: "bad input" },
      big: "12345678901234567890",
      inf: "Infinity",
      url: "https://sho.rt/a",
      cyclic: { name: "loop", self: "[circular]" },
      list: [1, null, "x"],
    });
    expect(JSON.parse(JSON.stringify(safe))).toEqual(safe);
  });

  test("long strings, wide objects, long arrays, deep nesting and large totals are cut, saying so", () => {
    const limits = { maxString: 5, maxEntries: 2, maxDepth: 2, maxTotal: 100 };
    expect(jsonSafe({ s: "abcdefgh" }, limits)).toEqual({ s: "abcde…" });
    expect(jsonSafe({ a: 1, b: 2, c: 3, d: 4 }, limits)).toEqual({ a: 1, b: 2, "…": "2 more fields" });
    expect(jsonSafe({ l: [1, 2, 3, 4] }, limits)).toEqual({ l: [1, 2, "… 2 more"] });
    expect(jsonSafe({ a: { b: { c: { d: 1 } } }, l: [[[1]]] }, limits)).toEqual({ a: { b: { c: "[object]" } }, l: [["[array]"]] });
    const wide = jsonSafe({ a: "x".repeat(60), b: "y".repeat(60), c: "z" }, { ...limits, maxString: 1000, maxEntries: 10 });
    expect(JSON.stringify(wide).length).toBeLessThan(160);
    expect(wide).toEqual({ a: "x".repeat(60), b: `${"y".repeat(38)}…`, "…": "1 more fields" });
    expect(capText("abc", 3)).toBe("abc");
    expect(capText("abcd", 3)).toBe("abc…");
  });
});
