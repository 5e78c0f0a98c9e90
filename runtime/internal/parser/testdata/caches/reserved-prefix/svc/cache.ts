import { CacheCluster, StringKeyspace } from "encore.dev/storage/cache";

const cluster = new CacheCluster("c");
export const s = new StringKeyspace<string>(cluster, { keyPattern: "__encore/:key" });
