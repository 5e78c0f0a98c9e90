import { api } from "encore.dev/api";

interface Totals {
  sum: bigint;
}

export const totals = api({ method: "GET", path: "/totals" }, async (): Promise<Totals> => ({ sum: 1n }));
