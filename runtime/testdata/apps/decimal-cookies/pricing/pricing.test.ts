import { describe, expect, test } from "vitest";
import { Decimal } from "encore.dev/types";
import { convert, quote } from "./pricing";

describe("quote", () => {
  test("adds tax exactly", async () => {
    const q = await quote({ price: new Decimal("19.99"), quantity: 3, taxRate: new Decimal("0.2") });
    expect(q.subtotal.toString()).toBe("59.97");
    expect(q.tax.toString()).toBe("11.994");
    expect(q.total.toString()).toBe("71.964");
    expect(q.perItem.toString()).toBe("23.988");
  });

  test("keeps a quotient exact until it is written", async () => {
    const q = await quote({ price: new Decimal("10"), quantity: 3 });
    expect(q.perItem.toString()).toBe("10");
    expect(new Decimal("10").div(3).toString()).toBe("3.3333333333");
    expect(new Decimal("10").div(3).mul(3).toString()).toBe("10");
  });

  test("0.1 + 0.2 is 0.3", () => {
    expect(new Decimal("0.1").add("0.2").value).toBe("0.3");
  });

  test("a text that is no decimal is refused", () => {
    expect(() => new Decimal("12,50")).toThrow("Invalid decimal format");
  });
});

describe("convert", () => {
  test("reads the amount and rate as decimals", async () => {
    const { result } = await convert({ amount: new Decimal("100"), rate: new Decimal("1.0825"), fee: new Decimal("0.5") });
    expect(result.value).toBe("108.75");
  });
});
