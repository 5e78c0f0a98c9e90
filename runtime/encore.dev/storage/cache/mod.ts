// encore.dev/storage/cache: keyspaces on a cache cluster, in this process's memory or on Redis (REDIS_URL).
export { CacheCluster } from "./cluster.ts";
export type { CacheClusterConfig, EvictionPolicy } from "./cluster.ts";
export type { KeyspaceConfig, WriteOptions } from "./keyspace.ts";
export { StringKeyspace, IntKeyspace, FloatKeyspace, StructKeyspace } from "./basic.ts";
export { StringListKeyspace, NumberListKeyspace } from "./list.ts";
export type { ListPosition } from "./list.ts";
export { StringSetKeyspace, NumberSetKeyspace } from "./set.ts";
export { expireIn, expireInSeconds, expireInMinutes, expireInHours, expireDailyAt, neverExpire, keepTTL } from "./expiry.ts";
export type { Expiry } from "./expiry.ts";
export { CacheError, CacheMiss, CacheKeyExists } from "../../../internal/cache/errors.ts";
