import { api } from "encore.dev/api";

export const wrap = api({ path: "/wrap" }, async <T,>(p: { value: T }): Promise<void> => {
  void p;
});
