import { api, APIError, ErrCode } from "encore.dev/api";
import type { Min } from "encore.dev/validate";
import { catalog } from "~encore/clients";

export interface Item {
  sku: string;
  quantity: number & Min<1>;
}

export interface QuoteRequest {
  items: Item[];
}

export interface Line {
  sku: string;
  name: string;
  quantity: number;
  subtotalCents: number;
}

export interface Quote {
  lines: Line[];
  totalCents: number;
}

/** The catalog's products for these skus, in order; an unknown sku is the caller's mistake. */
async function productsOf(skus: string[]) {
  try {
    return (await catalog.lookup({ skus })).products;
  } catch (err) {
    if (err instanceof APIError && err.code === ErrCode.NotFound) throw APIError.invalidArgument(err.message, err);
    throw err;
  }
}

/** Prices a basket with the catalog's current prices. */
export const quote = api(
  { expose: true, method: "POST", path: "/quote" },
  async ({ items }: QuoteRequest): Promise<Quote> => {
    const products = await productsOf(items.map((item) => item.sku));
    const lines = items.map((item, i) => {
      const product = products[i]!;
      return { sku: item.sku, name: product.name, quantity: item.quantity, subtotalCents: product.priceCents * item.quantity };
    });
    return { lines, totalCents: lines.reduce((sum, line) => sum + line.subtotalCents, 0) };
  },
);
