import { CacheCluster, StructKeyspace } from "encore.dev/storage/cache";

const cluster = new CacheCluster("c");
export const s = new StructKeyspace<string, string>(cluster, { keyPattern: "s/:key" });
