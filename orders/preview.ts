import { sql } from "drizzle-orm";
import { api, APIError } from "encore.dev/api";
import type { Max, MaxLen, Min, MinLen } from "encore.dev/validate";
import { orm } from "./db";
import { requireInteger } from "./checks/ids";

export interface CartItem {
  productId: number & Min<1> & Max<2147483647>;
  /** A whole number, 1 to 1000. */
  quantity: number & Min<1> & Max<1000>;
}

export interface PreviewRequest {
  items: CartItem[] & MinLen<1> & MaxLen<100>;
}

export interface PricedItem {
  productId: number;
  name: string;
  quantity: number;
  /** The product's current unit price. */
  price: number;
  /** price × quantity, computed by PostgreSQL on numeric values. */
  lineTotal: number;
}

export interface PreviewResponse {
  items: PricedItem[];
  total: number;
  currency: string;
}

interface PricedRow extends Record<string, unknown> {
  product_id: number | null;
  wanted_id: number;
  name: string | null;
  quantity: number;
  price: string | null;
  currency: string | null;
  line_total: string | null;
  total: string | null;
}

/**
 * Prices a cart from the products table without storing anything. Public.
 * One query: the cart joined to products, each line and the total multiplied and
 * summed in numeric by PostgreSQL, so no cent is lost to floating point.
 */
export const preview = api(
  { expose: true, method: "POST", path: "/orders/preview" },
  async ({ items }: PreviewRequest): Promise<PreviewResponse> => {
    items.forEach((item, i) => {
      requireInteger(item.productId, `items[${i}].productId`);
      requireInteger(item.quantity, `items[${i}].quantity`);
    });
    // Arrays as single parameters (drizzle would spread a bare array into a list).
    const ids = sql.param(items.map((i) => i.productId));
    const quantities = sql.param(items.map((i) => i.quantity));
    const { rows } = await orm.execute<PricedRow>(sql`
      SELECT p.id AS product_id, c.product_id AS wanted_id, p.name, c.quantity, p.price::text AS price, p.currency,
             (p.price * c.quantity)::text AS line_total,
             (sum(p.price * c.quantity) OVER ())::text AS total
      FROM unnest(${ids}::int[], ${quantities}::int[]) WITH ORDINALITY AS c(product_id, quantity, n)
      LEFT JOIN products p ON p.id = c.product_id
      ORDER BY c.n`);
    const missing = rows.find((r) => r.product_id === null);
    if (missing) throw APIError.notFound(`product ${missing.wanted_id} not found`);
    const currencies = new Set(rows.map((r) => r.currency));
    if (currencies.size > 1) throw APIError.invalidArgument("the cart mixes products priced in different currencies");
    return {
      items: rows.map((r) => ({
        productId: r.product_id!,
        name: r.name!,
        quantity: r.quantity,
        price: Number(r.price),
        lineTotal: Number(r.line_total),
      })),
      total: Number(rows[0]!.total),
      currency: rows[0]!.currency!,
    };
  },
);
