import { api } from "encore.dev/api";
import { Decimal } from "encore.dev/types";

// Encore's parser takes a path parameter of type string, number or boolean only.
export const byPrice = api({ method: "GET", path: "/by/:price" }, async (p: { price: Decimal }): Promise<void> => {
  void p;
});
