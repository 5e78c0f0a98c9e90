import { api, type Header } from "encore.dev/api";

interface Counted {
  items: string[];
  total: Header<number, "X-Total">;
}

export const list = api({ expose: true, method: "GET", path: "/items" }, async (): Promise<Counted> => ({ items: [], total: 0 }));
