import { CacheCluster, StringKeyspace } from "encore.dev/storage/cache";

interface Key {
  id: string;
  region: string;
}

const cluster = new CacheCluster("c");
export const s = new StringKeyspace<Key>(cluster, { keyPattern: "s/:id" });
