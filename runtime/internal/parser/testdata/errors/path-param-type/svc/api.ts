import { api } from "encore.dev/api";

export const byIds = api({ method: "GET", path: "/by/:ids" }, async (p: { ids: string[] }): Promise<void> => {
  void p;
});
