import { CacheCluster, StringKeyspace } from "encore.dev/storage/cache";

function pick(): CacheCluster {
  return new CacheCluster("c");
}
export const s = new StringKeyspace<string>(pick(), { keyPattern: "s/:key" });
