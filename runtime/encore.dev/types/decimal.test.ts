import { describe, expect, it } from "vitest";
import { Decimal } from "./mod.ts";

// Expected texts follow Encore's runtime: malachite's Rational parsed with from_sci_string
// and written with fmt_sci at complete size, or 10 digits after the point when the
// expansion never ends (runtimes/core/src/api/pvalue.rs).
describe("Decimal", () => {
  it.each([
    ["0", "0"],
    ["-0", "0"],
    ["19.99", "19.99"],
    ["1.50", "1.5"],
    ["-42", "-42"],
    ["1.5e10", "15000000000"],
    ["1e+3", "1000"],
    ["1.5e-10", "1.5e-10"],
    ["0.000001", "1e-6"],
    ["0.00001", "0.00001"],
    ["1e20", "100000000000000000000"],
    [".5", "0.5"],
    ["5.", "5"],
    ["-.5", "-0.5"],
  ])("reads %s and writes %s", (text, written) => {
    expect(new Decimal(text).value).toBe(written);
    expect(new Decimal(text).toString()).toBe(written);
  });

  it("takes numbers and bigints by their text", () => {
    expect(new Decimal(0.1).value).toBe("0.1");
    expect(new Decimal(1e21).value).toBe("1000000000000000000000");
    expect(new Decimal(10n ** 30n).value).toBe(`1${"0".repeat(30)}`);
  });

  it("adds, subtracts and multiplies exactly", () => {
    expect(new Decimal("0.1").add("0.2").value).toBe("0.3");
    expect(new Decimal("0.3").sub(new Decimal("0.1")).value).toBe("0.2");
    expect(new Decimal("19.99").mul(3).value).toBe("59.97");
    expect(new Decimal("123456789012345678901234567890").add(1).value).toBe("123456789012345678901234567891");
  });

  it("keeps a quotient exact and rounds it to 10 places only when written", () => {
    expect(new Decimal(1).div(3).value).toBe("0.3333333333");
    expect(new Decimal(2).div(3).value).toBe("0.6666666667");
    expect(new Decimal(-10).div(3).value).toBe("-3.3333333333");
    expect(new Decimal(1).div(3).mul(3).value).toBe("1");
    expect(new Decimal(1).div(8).value).toBe("0.125");
    expect(new Decimal("1e-7").div(3).value).toBe("3.33e-8");
    expect(new Decimal("1e-11").div(3).value).toBe("0.0000000000");
    expect(new Decimal("-1e-11").div(3).value).toBe("-0.0000000000");
  });

  it("refuses division by zero with a RangeError", () => {
    expect(() => new Decimal(1).div(0)).toThrow(RangeError);
  });

  it.each(["abc", "+1", "", "-", "1e", "e5", "1.2.3", "NaN", " 1", "1_0", "0x10", "1.-5", "Infinity"])(
    "refuses %j with Encore's error",
    (text) => {
      expect(() => new Decimal(text)).toThrow(`Invalid decimal format: 'Failed to parse decimal from string: ${text}'`);
    },
  );

  it("refuses exponents and texts beyond Encore's bounds", () => {
    expect(() => new Decimal("1e16385")).toThrow("Invalid decimal format: 'decimal exponent out of range: 16385'");
    expect(new Decimal("1e-16384").value).toBe("1e-16384");
    expect(() => new Decimal(`1${"0".repeat(1 << 18)}`)).toThrow(`decimal string too long: ${(1 << 18) + 1} bytes`);
  });

  it("is a string in JSON and in templates, a number where one is asked for", () => {
    const price = new Decimal("2.50");
    expect(JSON.stringify({ price })).toBe('{"price":"2.5"}');
    expect(`${price}`).toBe("2.5");
    expect(+price + 1).toBe(3.5);
  });
});
