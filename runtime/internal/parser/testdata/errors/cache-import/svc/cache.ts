import { CacheCluster } from "encore.dev/storage/cache";

// Encore's caching: not in this runtime yet, so generation must refuse it.
export const cluster = new CacheCluster("cluster", { evictionPolicy: "allkeys-lru" });
