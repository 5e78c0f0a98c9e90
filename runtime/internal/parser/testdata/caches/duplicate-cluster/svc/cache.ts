import { CacheCluster } from "encore.dev/storage/cache";

export const a = new CacheCluster("c");
export const b = new CacheCluster("c");
