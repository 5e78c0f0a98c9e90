// How the trace page shows an SQL statement written in an indented template literal.
import { describe, expect, test } from "vitest";
import { dedent } from "../src/format.ts";

describe("dedent", () => {
  test("drops the blank first line, the trailing space and the indent every line shares", () => {
    expect(dedent("\n    WITH stored AS (\n      INSERT INTO urls\n    )\n    SELECT 1\n  ")).toBe("WITH stored AS (\n  INSERT INTO urls\n)\nSELECT 1");
  });

  test("leaves a statement on one line as it is, and ignores blank lines when measuring the indent", () => {
    expect(dedent("SELECT 1")).toBe("SELECT 1");
    expect(dedent("  a\n\n    b")).toBe("a\n\n  b");
  });
});
