import { api, APIError } from "encore.dev/api";
import { CacheKeyExists, CacheMiss } from "encore.dev/storage/cache";
import { Decimal } from "encore.dev/types";
import { names, priceHistory, products, ratings, recent, sizes, tags, views } from "./cache";

export interface ProductInput {
  sku: string;
  region: string;
  name: string;
  price: Decimal;
  tags: string[];
  sizes: number[];
}

export interface Product {
  sku: string;
  region: string;
  name: string;
  price: Decimal;
  /** The price with 25% tax, exact to the cent. */
  priceWithTax: Decimal;
  tags: string[];
  sizes: number[];
  views: number;
  rating: number;
  /** Prices the product had, oldest first, as numbers. */
  priceHistory: number[];
}

/** Adds a product; a second add of the same sku and region is a conflict. */
export const addProduct = api(
  { expose: true, method: "POST", path: "/products" },
  async (p: ProductInput): Promise<{ sku: string }> => {
    try {
      await products.setIfNotExists({ sku: p.sku, region: p.region }, { name: p.name, price: p.price.toString() });
    } catch (err) {
      if (err instanceof CacheKeyExists) throw APIError.alreadyExists(`product ${p.sku} in ${p.region} exists`);
      throw err;
    }
    await names.set(p.sku, p.name);
    if (p.tags.length > 0) await tags.add(p.sku, ...p.tags);
    if (p.sizes.length > 0) await sizes.add(p.sku, ...p.sizes);
    await priceHistory.pushRight(p.sku, Number(p.price.toString()));
    return { sku: p.sku };
  },
);

/** Changes a product's price: the product must exist (replace, not set). */
export const reprice = api(
  { expose: true, method: "PUT", path: "/products/:sku/:region/price" },
  async ({ sku, region, price }: { sku: string; region: string; price: Decimal }): Promise<{ price: Decimal }> => {
    const key = { sku, region };
    const current = await products.get(key);
    if (current === undefined) throw APIError.notFound(`no product ${sku} in ${region}`);
    try {
      await products.replace(key, { ...current, price: price.toString() });
    } catch (err) {
      if (err instanceof CacheMiss) throw APIError.notFound(`no product ${sku} in ${region}`);
      throw err;
    }
    await priceHistory.pushRight(sku, Number(price.toString()));
    return { price };
  },
);

/** A product page: counts the view and remembers it among the visitor's recent ones. */
export const getProduct = api(
  { expose: true, method: "GET", path: "/products/:sku/:region" },
  async ({ sku, region, visitor }: { sku: string; region: string; visitor?: string }): Promise<Product> => {
    const stored = await products.get({ sku, region });
    if (stored === undefined) throw APIError.notFound(`no product ${sku} in ${region}`);
    const seen = await views.increment(sku);
    if (visitor) {
      await recent.removeAll(visitor, sku);
      await recent.pushLeft(visitor, sku);
      await recent.trim(visitor, 0, 4);
    }
    const price = new Decimal(stored.price);
    return {
      sku,
      region,
      name: (await names.get(sku)) ?? stored.name,
      price,
      priceWithTax: price.mul("1.25"),
      tags: (await tags.items(sku)).sort(),
      sizes: (await sizes.items(sku)).sort((a, b) => a - b),
      views: seen,
      rating: (await ratings.get(sku)) ?? 0,
      priceHistory: await priceHistory.items(sku),
    };
  },
);

/** Adds stars to a product's running rating total. */
export const rate = api(
  { expose: true, method: "POST", path: "/products/:sku/rate" },
  async ({ sku, stars }: { sku: string; stars: number }): Promise<{ rating: number }> => {
    return { rating: await ratings.increment(sku, stars) };
  },
);

/** The products a visitor saw last, newest first (five at most). */
export const recentlyViewed = api(
  { expose: true, method: "GET", path: "/visitors/:visitor/recent" },
  async ({ visitor }: { visitor: string }): Promise<{ skus: string[] }> => {
    return { skus: await recent.items(visitor) };
  },
);

/** Tags two products share. */
export const sharedTags = api(
  { expose: true, method: "GET", path: "/products/:a/shared-tags/:b" },
  async ({ a, b }: { a: string; b: string }): Promise<{ tags: string[] }> => {
    return { tags: (await tags.intersect(a, b)).sort() };
  },
);
