import { api } from "encore.dev/api";
import { callerId } from "./checks/customer";
import { customerTotals } from "./storage/order-store";

export interface CheckoutSummary {
  /** The caller's orders placed in the last `days` days. */
  count: number;
  /** Their total, summed by PostgreSQL in numeric. */
  total: number;
  /** The shop sells in one currency. */
  currency: string;
  days: number;
}

const days = 30;

/** The signed-in caller's recent orders: how many, and their total. */
export const summary = api(
  { expose: true, auth: true, method: "GET", path: "/checkout/summary" },
  async (): Promise<CheckoutSummary> => {
    const since = new Date(Date.now() - days * 24 * 60 * 60 * 1000);
    const { count, total } = await customerTotals(callerId(), since);
    return { count, total: Number(total), currency: "USD", days };
  },
);
