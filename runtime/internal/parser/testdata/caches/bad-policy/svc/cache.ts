import { CacheCluster } from "encore.dev/storage/cache";

export const cluster = new CacheCluster("c", { evictionPolicy: "lru" });
