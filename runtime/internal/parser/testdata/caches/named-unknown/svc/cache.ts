import { CacheCluster, StringKeyspace } from "encore.dev/storage/cache";

export const s = new StringKeyspace<string>(CacheCluster.named("missing"), { keyPattern: "s/:key" });
