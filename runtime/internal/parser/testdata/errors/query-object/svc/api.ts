import { api } from "encore.dev/api";

interface ListParams {
  filter: { owner: string };
}

export const list = api({ method: "GET", path: "/list" }, async (p: ListParams): Promise<void> => {
  void p;
});
