import { api, type Query } from "encore.dev/api";

interface Paged {
  items: string[];
  next: Query<"next">;
}

export const list = api({ expose: true, method: "GET", path: "/items" }, async (): Promise<Paged> => ({ items: [], next: "" }));
