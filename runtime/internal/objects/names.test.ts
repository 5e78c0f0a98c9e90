import { describe, expect, test } from "vitest";
import { InvalidArgument } from "./errors.ts";
import { bucketNameProblem, checkListPrefix, checkObjectName } from "./names.ts";

describe("object names", () => {
  test.each([
    ["../x", /"\.\." segments/],
    ["a/../../b", /"\.\." segments/],
    ["..", /"\.\." segments/],
    ["./a", /"\." segments/],
    ["/etc/passwd", /must not start with \//],
    ["a\\b", /backslashes/],
    ["..\\windows", /backslashes/],
    ["a//b", /empty segments/],
    ["trailing/", /empty segments/],
    ["nul\0", /control characters/],
    ["tab\there", /control characters/],
    ["del\x7f", /control characters/],
    ["c1\u0085", /control characters/],
    ["lone\ud800", /control characters/],
    ["é".repeat(513), /longer than 1024 bytes/],
  ])("%j is refused: %s", (name, why) => {
    expect(() => checkObjectName(name)).toThrow(InvalidArgument);
    expect(() => checkObjectName(name)).toThrow(why);
  });

  test("empty and non-string names are refused", () => {
    expect(() => checkObjectName("")).toThrow(InvalidArgument);
    expect(() => checkObjectName(42)).toThrow(InvalidArgument);
  });

  test("percent-encodings are not decoded here: HTTP decodes once, and what is left is a literal name", () => {
    for (const name of ["%2e%2e%2f", "..%2f", "%252e%252e", "a/...", "..a", "é".repeat(512), "x".repeat(1024)]) {
      expect(() => checkObjectName(name)).not.toThrow();
    }
  });

  test("a list prefix may end with / but has no control characters", () => {
    expect(() => checkListPrefix("a/b/")).not.toThrow();
    expect(() => checkListPrefix(undefined)).not.toThrow();
    expect(() => checkListPrefix("a\0")).toThrow(InvalidArgument);
  });
});

describe("bucket names", () => {
  test("lower-case letters, digits and -, starting with a letter, at most 63 characters", () => {
    for (const ok of ["qr-codes", "a", "b2", "x".repeat(63)]) expect(bucketNameProblem(ok)).toBeNull();
    for (const bad of ["", "QR", "qr_codes", "-qr", "qr-", "2fa", "a.b", "../x", ".signing-key", "x".repeat(64)]) {
      expect(bucketNameProblem(bad)).toMatch(/^invalid bucket name/);
    }
  });
});
