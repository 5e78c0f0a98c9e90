import { api } from "encore.dev/api";
import { ordersProcessed } from "../svc/metrics";
import { cacheSize } from "../lib/shared";

export const ping = api({ method: "GET", path: "/ping" }, async (): Promise<void> => {
  ordersProcessed.increment(2);
  cacheSize.set(10);
});
