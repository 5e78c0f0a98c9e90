import { CacheCluster, StringKeyspace } from "encore.dev/storage/cache";

const cluster = new CacheCluster("c");
export const s = new StringKeyspace(cluster, { keyPattern: "s/:key" });
