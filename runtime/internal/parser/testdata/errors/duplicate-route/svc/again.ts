import { api } from "encore.dev/api";

export const second = api({ method: ["POST", "GET"], path: "/items/:key" }, async (p: { key: string }): Promise<void> => {
  void p;
});
