import { api, type Header, type Query } from "encore.dev/api";
import { Decimal } from "encore.dev/types";

export interface QuoteRequest {
  price: Decimal;
  quantity: number;
  /** A fraction, e.g. "0.2" for 20 %. */
  taxRate?: Decimal;
}

export interface Quote {
  subtotal: Decimal;
  tax: Decimal;
  total: Decimal;
  /** What one item costs, tax included; a third of a cent stays exact until written. */
  perItem: Decimal;
}

// Prices are exact: 0.1 + 0.2 is 0.3, and a division is rounded only when it is written.
export const quote = api({ expose: true, method: "POST", path: "/quote" }, async (req: QuoteRequest): Promise<Quote> => {
  const subtotal = req.price.mul(req.quantity);
  const tax = subtotal.mul(req.taxRate ?? 0);
  const total = subtotal.add(tax);
  return { subtotal, tax, total, perItem: total.div(req.quantity) };
});

interface Conversion {
  amount: Query<Decimal>;
  rate: Query<Decimal>;
  fee?: Header<Decimal, "X-Fee">;
}

export const convert = api({ expose: true, method: "GET", path: "/convert" }, async (c: Conversion): Promise<{ result: Decimal }> => ({
  result: c.amount.mul(c.rate).add(c.fee ?? 0),
}));
