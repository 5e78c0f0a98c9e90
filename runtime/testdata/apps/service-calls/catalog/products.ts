import { api, APIError } from "encore.dev/api";

export interface Product {
  sku: string;
  name: string;
  priceCents: number;
}

// A fixed catalog keeps the example about service calls rather than storage.
const products = new Map<string, Product>(
  [
    { sku: "mug", name: "Enamel mug", priceCents: 1200 },
    { sku: "tea", name: "Loose-leaf tea, 100 g", priceCents: 850 },
    { sku: "kettle", name: "Stovetop kettle", priceCents: 3900 },
  ].map((p) => [p.sku, p]),
);

function find(sku: string): Product {
  const product = products.get(sku);
  if (!product) throw APIError.notFound(`no product with sku ${sku}`);
  return product;
}

/** A product, for anyone browsing. */
export const getProduct = api(
  { expose: true, method: "GET", path: "/products/:sku" },
  async ({ sku }: { sku: string }): Promise<Product> => find(sku),
);

export interface PriceRequest {
  skus: string[];
}

export interface PriceList {
  products: Product[];
}

/** Several products at once, in the order asked; for other services only (not exposed). */
export const lookup = api({ expose: false }, async ({ skus }: PriceRequest): Promise<PriceList> => {
  return { products: skus.map(find) };
});
