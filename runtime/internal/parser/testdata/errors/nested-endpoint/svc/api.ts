import { api } from "encore.dev/api";

/** Endpoints made by a function are never served: Encore binds an endpoint to an exported const. */
export function makeEndpoint(path: string) {
  return api({ path }, async (): Promise<void> => {});
}
