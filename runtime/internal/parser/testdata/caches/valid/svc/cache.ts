import { CacheCluster, expireInHours, IntKeyspace, StringSetKeyspace, StructKeyspace } from "encore.dev/storage/cache";

interface UserKey {
  id: string;
  region: string;
}

export const cluster = new CacheCluster("sessions", { evictionPolicy: "volatile-ttl" });

export const users = new StructKeyspace<UserKey, { name: string }>(cluster, { keyPattern: "user/:region/:id", defaultExpiry: expireInHours(1) });
export const counts = new IntKeyspace<string>(CacheCluster.named("sessions"), { keyPattern: "count/:key" });
export const tags = new StringSetKeyspace<number>(new CacheCluster("tags"), { keyPattern: "tags/:key" });
