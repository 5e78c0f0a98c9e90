import { api } from "encore.dev/api";

export const item = api(
  { method: "GET", path: "/items/:id" },
  async (p: { name: string }): Promise<void> => {
    void p;
  },
);
