import { api } from "encore.dev/api";

export const first = api({ method: "GET", path: "/items/:id" }, async (p: { id: string }): Promise<void> => {
  void p;
});
