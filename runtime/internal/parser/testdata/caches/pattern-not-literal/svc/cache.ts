import { CacheCluster, StringKeyspace } from "encore.dev/storage/cache";

const cluster = new CacheCluster("c");
const pattern = ["s", ":key"].join("/");
export const s = new StringKeyspace<string>(cluster, { keyPattern: pattern });
