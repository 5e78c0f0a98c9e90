import { CacheCluster, StringKeyspace } from "encore.dev/storage/cache";

const cluster = new CacheCluster("c");
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const s = new StringKeyspace<any>(cluster, { keyPattern: "s/:key" });
