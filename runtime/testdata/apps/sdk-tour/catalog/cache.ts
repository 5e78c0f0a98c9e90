import {
  CacheCluster,
  expireInHours,
  FloatKeyspace,
  IntKeyspace,
  NumberListKeyspace,
  NumberSetKeyspace,
  StringKeyspace,
  StringListKeyspace,
  StringSetKeyspace,
  StructKeyspace,
} from "encore.dev/storage/cache";

export const catalogCache = new CacheCluster("catalog", { evictionPolicy: "allkeys-lru" });

/** A product as stored: its price as the Decimal's text, which survives JSON exactly. */
export interface StoredProduct {
  name: string;
  price: string;
}

export interface ProductKey {
  sku: string;
  region: string;
}

export const products = new StructKeyspace<ProductKey, StoredProduct>(catalogCache, { keyPattern: "product/:sku/:region" });
export const names = new StringKeyspace<string>(catalogCache, { keyPattern: "name/:key" });
export const views = new IntKeyspace<string>(catalogCache, { keyPattern: "views/:key", defaultExpiry: expireInHours(24) });
export const ratings = new FloatKeyspace<string>(catalogCache, { keyPattern: "rating/:key" });
export const recent = new StringListKeyspace<string>(catalogCache, { keyPattern: "recent/:key" });
export const priceHistory = new NumberListKeyspace<string>(catalogCache, { keyPattern: "prices/:key" });
export const tags = new StringSetKeyspace<string>(catalogCache, { keyPattern: "tags/:key" });
export const sizes = new NumberSetKeyspace<string>(catalogCache, { keyPattern: "sizes/:key" });
