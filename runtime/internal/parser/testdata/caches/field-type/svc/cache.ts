import { CacheCluster, StringKeyspace } from "encore.dev/storage/cache";

interface Key {
  id: string;
  when: Date;
}

const cluster = new CacheCluster("c");
export const s = new StringKeyspace<Key>(cluster, { keyPattern: "s/:id/:when" });
