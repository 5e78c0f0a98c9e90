import { api } from "encore.dev/api";

interface Impossible {
  nothing: never;
}

export const impossible = api({ path: "/never" }, async (p: Impossible): Promise<void> => {
  void p;
});
