import { catalog } from "~encore/clients";
import { describe, expect, test } from "vitest";

describe("the catalog", () => {
  test("an internal lookup answers in the order asked", async () => {
    const { products } = await catalog.lookup({ skus: ["kettle", "mug"] });
    expect(products.map((p) => p.sku)).toEqual(["kettle", "mug"]);
  });

  test("an unknown sku is not found", async () => {
    await expect(catalog.getProduct({ sku: "teapot" })).rejects.toMatchObject({ code: "not_found" });
  });
});
