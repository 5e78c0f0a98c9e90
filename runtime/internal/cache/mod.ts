import { config } from "../config/mod.ts";
import { MemoryStore } from "./memory-store.ts";
import type { CacheStore } from "./store.ts";

/** A cluster as `new CacheCluster(...)` declared it in this process (the dashboard reads the parser's metadata). */
export interface ClusterSpec {
  readonly name: string;
  readonly evictionPolicy: string;
}

const clusters = new Map<string, ClusterSpec>();
let store: CacheStore | undefined;
let starting: Promise<CacheStore> | undefined;

/** Called by the CacheCluster constructor: records it, touches no store. `CacheCluster.named` passes no policy. */
export function declareCluster(name: string, evictionPolicy: string | undefined): ClusterSpec {
  const found = clusters.get(name);
  if (found) return found;
  const spec: ClusterSpec = Object.freeze({ name, evictionPolicy: evictionPolicy ?? "allkeys-lru" });
  clusters.set(name, spec);
  return spec;
}

/**
 * Where a cluster's keys start in the store: its name and a slash, as Encore prefixes
 * each cluster's keys locally (cli/daemon/run/infra/infra.go), after DATABASE_NAME_PREFIX,
 * so environments sharing a Redis keep apart (and `test` gives each test file its own).
 */
export function clusterPrefix(cluster: string): string {
  return `${config().databaseNamePrefix}${cluster}/`;
}

/**
 * The store, made on first use: Redis when REDIS_URL is set, shared by every instance,
 * else this process's memory. Nothing connects before a cache operation needs it.
 */
export function cacheStore(): Promise<CacheStore> {
  if (store) return Promise.resolve(store);
  const { redisUrl } = config();
  if (redisUrl === null) return Promise.resolve((store = new MemoryStore()));
  starting ??= import("./redis-store.ts")
    .then(({ RedisStore }) => RedisStore.open(redisUrl))
    .then(
      (s) => (store = s),
      (err: unknown) => {
        starting = undefined; // not kept: the next call tries again
        throw err;
      },
    );
  return starting;
}

/** Whether the store is in this process or on Redis, without starting it. */
export function cacheBackend(): "memory" | "redis" {
  return config().redisUrl === null ? "memory" : "redis";
}

/** At shutdown (and when a test file ends): closes the Redis connection; the next use opens it again. */
export async function stopCache(): Promise<void> {
  const s = store ?? (await starting?.catch(() => undefined));
  store = undefined;
  starting = undefined;
  await s?.close();
}

/** When a test file ends: deletes the keys it wrote (they carry its DATABASE_NAME_PREFIX). */
export async function deleteTestKeys(): Promise<void> {
  const prefix = config().databaseNamePrefix;
  if (prefix === "" || !store) return;
  await store.deletePrefix(prefix);
}
