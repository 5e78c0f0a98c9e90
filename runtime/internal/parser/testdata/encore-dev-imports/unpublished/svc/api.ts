import { api } from "encore.dev/api";
// Not a module encore.dev publishes: generation must name it, with this file and line.
import { something } from "encore.dev/nope";

export const hello = api({ expose: true, method: "GET", path: "/hello" }, async (): Promise<{ value: string }> => {
  return { value: String(something) };
});
