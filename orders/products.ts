import { eq } from "drizzle-orm";
import { api, APIError } from "encore.dev/api";
import type { Max, Min } from "encore.dev/validate";
import { orm } from "./db";
import { requireInteger } from "./checks/ids";
import { products } from "./schema";

export interface Product {
  id: number;
  name: string;
  /** The unit price: numeric(12,2) in the database, exact to the cent. */
  price: number;
  /** ISO 4217 code, such as "USD". */
  currency: string;
  createdAt: Date;
}

/** A product of the shop. Public. */
export const getProduct = api(
  { expose: true, method: "GET", path: "/products/:id" },
  async ({ id }: { id: number & Min<1> & Max<2147483647> }): Promise<Product> => {
    requireInteger(id, "id");
    const [row] = await orm.select().from(products).where(eq(products.id, id));
    if (!row) throw APIError.notFound("product not found");
    return { ...row, price: Number(row.price) };
  },
);
