import { describe, expect, test } from "vitest";
import { Decimal } from "encore.dev/types";
import { shop } from "~encore/clients";

describe("cart total", () => {
  test("sums the lines priced by the pricing service, exactly", async () => {
    const res = await shop.total({ lines: [{ price: new Decimal("0.1"), quantity: 1 }, { price: new Decimal("0.2"), quantity: 1 }] });
    expect(res.total).toBeInstanceOf(Decimal);
    expect(res.total.value).toBe("0.3");
    expect(res.lines.map((line) => line.value)).toEqual(["0.1", "0.2"]);
  });
});
