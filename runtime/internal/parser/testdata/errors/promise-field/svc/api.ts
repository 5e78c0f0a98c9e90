import { api } from "encore.dev/api";

interface Later {
  result: Promise<string>;
  tags: Set<string>;
}

export const later = api({ method: "GET", path: "/later" }, async (): Promise<Later> => {
  return { result: Promise.resolve("x"), tags: new Set() };
});
