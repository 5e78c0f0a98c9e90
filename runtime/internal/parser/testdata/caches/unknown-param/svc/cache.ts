import { CacheCluster, StringKeyspace } from "encore.dev/storage/cache";

interface Key {
  id: string;
}

const cluster = new CacheCluster("c");
export const s = new StringKeyspace<Key>(cluster, { keyPattern: "s/:id/:region" });
