import { api, type Header, type Query } from "encore.dev/api";
import { Decimal } from "encore.dev/types";

export interface Quote {
  amount: Decimal;
  quantity: number;
  discount?: Decimal | null;
}

export interface Total {
  total: Decimal;
  lines: Decimal[];
  saved: Decimal | null;
}

export const total = api({ expose: true, method: "POST", path: "/total" }, async (q: Quote): Promise<Total> => {
  const line = q.amount.mul(q.quantity);
  return { total: line.sub(q.discount ?? 0), lines: [line], saved: q.discount ?? null };
});

interface Conversion {
  amount: Decimal;
  rate: Query<Decimal, "r">;
  fee?: Header<Decimal, "X-Fee">;
}

export const convert = api({ expose: true, method: "GET", path: "/convert" }, async (c: Conversion): Promise<{ result: Decimal }> => ({
  result: c.amount.mul(c.rate).add(c.fee ?? 0),
}));
