import { APIError, ErrCode } from "encore.dev/api";
import { Decimal } from "encore.dev/types";
import { describe, expect, test } from "vitest";
import { addProduct, getProduct, rate, recentlyViewed, reprice, sharedTags } from "./products";

describe("the catalog, kept in a cache cluster", () => {
  test("a product added is read back with its exact price, tax and a count of its views", async () => {
    await addProduct({ sku: "tea", region: "eu", name: "Green tea", price: new Decimal("19.99"), tags: ["hot", "leaf"], sizes: [250, 100] });
    const first = await getProduct({ sku: "tea", region: "eu" });
    expect(first.price.toString()).toBe("19.99");
    expect(first.priceWithTax.toString()).toBe("24.9875");
    expect(first).toMatchObject({ name: "Green tea", tags: ["hot", "leaf"], sizes: [100, 250], views: 1, rating: 0, priceHistory: [19.99] });
    expect((await getProduct({ sku: "tea", region: "eu" })).views).toBe(2);
  });

  test("a second add of the same product is a conflict; another region is another product", async () => {
    await addProduct({ sku: "mug", region: "eu", name: "Mug", price: new Decimal("8"), tags: [], sizes: [] });
    await expect(addProduct({ sku: "mug", region: "eu", name: "Mug", price: new Decimal("9"), tags: [], sizes: [] })).rejects.toMatchObject({
      code: ErrCode.AlreadyExists,
    });
    await addProduct({ sku: "mug", region: "us", name: "Mug", price: new Decimal("10"), tags: [], sizes: [] });
    expect((await getProduct({ sku: "mug", region: "us" })).price.toString()).toBe("10");
  });

  test("a reprice replaces the price and is kept in the history; a missing product is not found", async () => {
    await addProduct({ sku: "pot", region: "eu", name: "Teapot", price: new Decimal("30.5"), tags: [], sizes: [] });
    await reprice({ sku: "pot", region: "eu", price: new Decimal("27.25") });
    expect(await getProduct({ sku: "pot", region: "eu" })).toMatchObject({ priceHistory: [30.5, 27.25] });
    const missing = reprice({ sku: "pot", region: "asia", price: new Decimal("1") });
    await expect(missing).rejects.toBeInstanceOf(APIError);
    await expect(missing).rejects.toMatchObject({ code: ErrCode.NotFound });
  });

  test("ratings add up as floats, recent views keep the newest five, and tags intersect", async () => {
    expect(await rate({ sku: "tea", stars: 4.5 })).toEqual({ rating: 4.5 });
    expect(await rate({ sku: "tea", stars: 3 })).toEqual({ rating: 7.5 });
    for (const sku of ["a", "b", "c", "d", "e", "f"]) {
      await addProduct({ sku, region: "eu", name: sku, price: new Decimal("1"), tags: sku < "d" ? ["x", sku] : ["x"], sizes: [] });
      await getProduct({ sku, region: "eu", visitor: "v1" });
    }
    await getProduct({ sku: "c", region: "eu", visitor: "v1" });
    expect(await recentlyViewed({ visitor: "v1" })).toEqual({ skus: ["c", "f", "e", "d", "b"] });
    expect(await sharedTags({ a: "a", b: "b" })).toEqual({ tags: ["x"] });
  });
});
