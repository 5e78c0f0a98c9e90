import { declareCluster, type ClusterSpec } from "../../../internal/cache/mod.ts";

/** How Redis evicts keys when its memory is full. */
export type EvictionPolicy =
  | "noeviction"
  | "allkeys-lru"
  | "allkeys-lfu"
  | "allkeys-random"
  | "volatile-lru"
  | "volatile-lfu"
  | "volatile-ttl"
  | "volatile-random";

export interface CacheClusterConfig {
  /** Defaults to "allkeys-lru". */
  evictionPolicy?: EvictionPolicy;
}

/** A single string literal: neither `string` nor a union. */
type StringLiteral<T extends string> = string extends T ? never : [T] extends [UnionMember<T>] ? T : never;
type UnionMember<T, All = T> = T extends unknown ? ([All] extends [T] ? T : never) : never;

/**
 * A cache cluster: its keyspaces' keys live in one store, under "<name>/". Declaring one is
 * inert; the store (this process's memory, or Redis with REDIS_URL) is reached on first use.
 *
 * @example
 * const cache = new CacheCluster("my-cache", { evictionPolicy: "allkeys-lru" });
 */
export class CacheCluster {
  /** @internal */
  readonly clusterName: string;
  /** @internal */
  readonly spec: ClusterSpec;

  constructor(name: string, cfg?: CacheClusterConfig) {
    this.clusterName = name;
    this.spec = declareCluster(name, cfg?.evictionPolicy);
  }

  /** A handle on a cluster declared elsewhere with `new CacheCluster(name)`. */
  static named<Name extends string>(name: StringLiteral<Name>): CacheCluster {
    return new CacheCluster(name);
  }
}
