import { api } from "encore.dev/api";

interface ShortenParams {
  url: string;
  m: Map<string, number>;
}

export const shorten = api({ path: "/shorten" }, async (p: ShortenParams): Promise<void> => {
  void p;
});
