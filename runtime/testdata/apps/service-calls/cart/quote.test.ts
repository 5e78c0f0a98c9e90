import { describe, expect, test } from "vitest";
import { quote } from "./quote";

describe("quoting a basket", () => {
  test("each line is priced by the catalog and the total adds them up", async () => {
    const result = await quote({ items: [{ sku: "mug", quantity: 2 }, { sku: "tea", quantity: 1 }] });
    expect(result).toEqual({
      lines: [
        { sku: "mug", name: "Enamel mug", quantity: 2, subtotalCents: 2400 },
        { sku: "tea", name: "Loose-leaf tea, 100 g", quantity: 1, subtotalCents: 850 },
      ],
      totalCents: 3250,
    });
  });

  test("an empty basket costs nothing", async () => {
    expect(await quote({ items: [] })).toEqual({ lines: [], totalCents: 0 });
  });

  test("a product the catalog does not know is the caller's invalid argument, naming the sku", async () => {
    await expect(quote({ items: [{ sku: "teapot", quantity: 1 }] })).rejects.toMatchObject({
      code: "invalid_argument",
      message: "no product with sku teapot",
    });
  });
});
