import { CacheError } from "../../../internal/cache/errors.ts";
import { runOperation } from "../../../internal/cache/operation.ts";
import type { CacheStore, Ttl } from "../../../internal/cache/store.ts";
import type { CacheOutcome } from "../../../internal/tracing/recorder.ts";
import type { CacheCluster } from "./cluster.ts";
import { resolveExpiry, type Expiry } from "./expiry.ts";

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- K is in Encore's signature: keyspaces pass their key type
export interface KeyspaceConfig<K> {
  /**
   * How keys are made: `:name` segments take the key's field of that name (struct keys),
   * or the key itself (`:key`, for string and number keys). E.g. "user/:id".
   */
  keyPattern: string;
  /** Expiry of every write that gives none; without it keys do not expire. */
  defaultExpiry?: Expiry;
}

export interface WriteOptions {
  /** Overrides the keyspace's defaultExpiry for this write. */
  expiry?: Expiry;
}

type Segment = { literal: string } | { field: string };

/** What every keyspace shares: its cluster, key mapping, expiry, with() and delete(). */
export abstract class Keyspace<K> {
  protected readonly cluster: CacheCluster;
  protected readonly config: KeyspaceConfig<K>;
  /** A plain field, not #private: with() copies the keyspace with Object.assign. */
  protected withExpiry: Expiry | undefined;
  private readonly segments: readonly Segment[];

  constructor(cluster: CacheCluster, config: KeyspaceConfig<K>) {
    this.cluster = cluster;
    this.config = config;
    this.segments = config.keyPattern.split("/").map((s) => (s.startsWith(":") ? { field: s.slice(1) } : { literal: s }));
  }

  /**
   * A copy of this keyspace whose writes use `options` (unless a write gives its own).
   * @example await users.with({ expiry: expireInMinutes(5) }).set(id, user);
   */
  with(options: WriteOptions): this {
    const copy = Object.create(Object.getPrototypeOf(this) as object) as this;
    Object.assign(copy, this);
    copy.withExpiry = options.expiry ?? this.withExpiry;
    return copy;
  }

  /** Deletes the keys; missing keys are ignored. Returns how many were deleted. */
  async delete(...keys: K[]): Promise<number> {
    return this.op("delete", true, keys, (store, k) => store.del(k));
  }

  /** The key as stored (without the cluster's prefix): the pattern with its fields filled in, "/" in values escaped. */
  protected mapKey(key: K): string {
    const mapped = this.segments
      .map((segment) => {
        if ("literal" in segment) return segment.literal;
        const value = typeof key === "object" && key !== null ? (key as Record<string, unknown>)[segment.field] : key;
        return String(value).replace(/\//g, "\\/");
      })
      .join("/");
    if (mapped.startsWith("__encore")) throw new CacheError('use of reserved key prefix "__encore"');
    return mapped;
  }

  /** The TTL of a write: its own expiry, else with()'s, else the keyspace's default; undefined for none. */
  protected ttl(options?: WriteOptions): Ttl {
    const expiry = options?.expiry ?? this.withExpiry ?? this.config.defaultExpiry;
    if (expiry === undefined) return undefined;
    const resolved = resolveExpiry(expiry);
    return resolved === "never" ? "persist" : resolved === "keep-ttl" ? "keep" : resolved;
  }

  /** Runs one operation on the store with the keys mapped and prefixed (see internal/cache/operation.ts). */
  protected op<T>(
    name: string,
    write: boolean,
    keys: readonly K[],
    run: (store: CacheStore, keys: string[]) => Promise<T>,
    outcome?: (value: T) => CacheOutcome,
  ): Promise<T> {
    let mapped: string[];
    try {
      mapped = keys.map((key) => this.mapKey(key));
    } catch (err) {
      return Promise.reject(err);
    }
    return runOperation({ cluster: this.cluster.clusterName, keyspace: this.config.keyPattern, name, write, keys: mapped }, run, outcome);
  }
}

/** "hit" when a read found a value, "miss" when it did not. */
export const found = (value: unknown): CacheOutcome => (value === null || value === undefined ? "miss" : "hit");
