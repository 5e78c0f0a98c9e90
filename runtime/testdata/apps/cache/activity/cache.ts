import {
  CacheCluster,
  FloatKeyspace,
  IntKeyspace,
  NumberListKeyspace,
  NumberSetKeyspace,
  StringListKeyspace,
  StringSetKeyspace,
} from "encore.dev/storage/cache";

// The cluster the profiles service declares: one cluster, keys under "main/".
const cluster = CacheCluster.named("main");

export const views = new IntKeyspace<string>(cluster, { keyPattern: "views/:key" });
export const ratings = new FloatKeyspace<string>(cluster, { keyPattern: "rating/:key" });
export const recent = new StringListKeyspace<string>(cluster, { keyPattern: "recent/:key" });
export const scores = new NumberListKeyspace<string>(cluster, { keyPattern: "scores/:key" });
export const tags = new StringSetKeyspace<string>(cluster, { keyPattern: "tags/:key" });
export const votes = new NumberSetKeyspace<string>(cluster, { keyPattern: "votes/:key" });
