import { CacheKeyExists, CacheMiss } from "../../../internal/cache/errors.ts";
import type { CacheCluster } from "./cluster.ts";
import { found, Keyspace, type KeyspaceConfig, type WriteOptions } from "./keyspace.ts";

/** Keyspaces of one value per key: get, set, replace, ... */
abstract class BasicKeyspace<K, V> extends Keyspace<K> {
  protected abstract serialize(value: V): string;
  protected abstract deserialize(text: string): V;

  /** The value, or undefined when the key does not exist. */
  async get(key: K): Promise<V | undefined> {
    const text = await this.op("get", false, [key], (store, [k]) => store.get(k!), found);
    return text === null ? undefined : this.deserialize(text);
  }

  /** The values in the order of the keys, undefined for each that does not exist. */
  async multiGet(...keys: K[]): Promise<(V | undefined)[]> {
    const texts = await this.op("multi get", false, keys, (store, k) => store.mget(k));
    return texts.map((text) => (text === null ? undefined : this.deserialize(text)));
  }

  /** Sets every entry, each with the write's expiry. */
  async multiSet(entries: [K, V][], options?: WriteOptions): Promise<void> {
    const values = entries.map(([, value]) => this.serialize(value));
    const ttl = this.ttl(options);
    await this.op(
      "multi set",
      true,
      entries.map(([key]) => key),
      (store, keys) => store.mset(keys.map((k, i) => [k, values[i]!] as const), ttl),
    );
  }

  async set(key: K, value: V, options?: WriteOptions): Promise<void> {
    const text = this.serialize(value);
    const ttl = this.ttl(options);
    await this.op("set", true, [key], (store, [k]) => store.set(k!, text, { ttl }));
  }

  /** Sets the key only if it does not exist: throws CacheKeyExists when it does. */
  async setIfNotExists(key: K, value: V, options?: WriteOptions): Promise<void> {
    const text = this.serialize(value);
    const ttl = this.ttl(options);
    const { written } = await this.op(
      "set if not exists",
      true,
      [key],
      (store, [k]) => store.set(k!, text, { ttl, condition: "nx" }),
      (r) => (r.written ? "ok" : "conflict"),
    );
    if (!written) throw new CacheKeyExists(this.mapKey(key));
  }

  /** Sets the key only if it exists: throws CacheMiss when it does not. */
  async replace(key: K, value: V, options?: WriteOptions): Promise<void> {
    const text = this.serialize(value);
    const ttl = this.ttl(options);
    const { written } = await this.op(
      "replace",
      true,
      [key],
      (store, [k]) => store.set(k!, text, { ttl, condition: "xx" }),
      (r) => (r.written ? "ok" : "miss"),
    );
    if (!written) throw new CacheMiss(this.mapKey(key));
  }

  /** Sets the key and returns the value it had, or undefined. */
  async getAndSet(key: K, value: V, options?: WriteOptions): Promise<V | undefined> {
    const text = this.serialize(value);
    const ttl = this.ttl(options);
    const { previous } = await this.op(
      "get and set",
      true,
      [key],
      (store, [k]) => store.set(k!, text, { ttl, get: true }),
      (r) => found(r.previous),
    );
    return previous === null ? undefined : this.deserialize(previous);
  }

  /** Deletes the key and returns the value it had, or undefined. */
  async getAndDelete(key: K): Promise<V | undefined> {
    const text = await this.op("get and delete", true, [key], (store, [k]) => store.getDel(k!), found);
    return text === null ? undefined : this.deserialize(text);
  }
}

/** String values. */
export class StringKeyspace<K> extends BasicKeyspace<K, string> {
  constructor(cluster: CacheCluster, config: KeyspaceConfig<K>) {
    super(cluster, config);
  }

  protected serialize(value: string): string {
    return value;
  }

  protected deserialize(text: string): string {
    return text;
  }

  /** Appends to the string (a missing key counts as ""); returns its new length. */
  async append(key: K, value: string, options?: WriteOptions): Promise<number> {
    const ttl = this.ttl(options);
    return this.op("append", true, [key], (store, [k]) => store.append(k!, value, ttl));
  }

  /** The substring from `start` to `end`, both included; negative indices count from the end. */
  async getRange(key: K, start: number, end: number): Promise<string> {
    return this.op("get range", false, [key], (store, [k]) => store.getRange(k!, start, end));
  }

  /** Overwrites from byte `offset` (padding with zero bytes); returns the new length. */
  async setRange(key: K, offset: number, value: string, options?: WriteOptions): Promise<number> {
    const ttl = this.ttl(options);
    return this.op("set range", true, [key], (store, [k]) => store.setRange(k!, offset, value, ttl));
  }

  /** The string's length; 0 for a missing key. */
  async len(key: K): Promise<number> {
    return this.op("len", false, [key], (store, [k]) => store.strlen(k!));
  }
}

/** 64-bit integer values: written values and deltas are floored. */
export class IntKeyspace<K> extends BasicKeyspace<K, number> {
  constructor(cluster: CacheCluster, config: KeyspaceConfig<K>) {
    super(cluster, config);
  }

  protected serialize(value: number): string {
    return String(Math.floor(value));
  }

  protected deserialize(text: string): number {
    return parseInt(text, 10);
  }

  /** Adds `delta` (a missing key counts as 0); returns the new value. */
  async increment(key: K, delta: number = 1, options?: WriteOptions): Promise<number> {
    const ttl = this.ttl(options);
    return this.op("increment", true, [key], (store, [k]) => store.incrBy(k!, Math.floor(delta), ttl));
  }

  /** Subtracts `delta` (a missing key counts as 0); returns the new value. */
  async decrement(key: K, delta: number = 1, options?: WriteOptions): Promise<number> {
    const ttl = this.ttl(options);
    return this.op("decrement", true, [key], (store, [k]) => store.incrBy(k!, -Math.floor(delta), ttl));
  }
}

/** 64-bit floating point values. */
export class FloatKeyspace<K> extends BasicKeyspace<K, number> {
  constructor(cluster: CacheCluster, config: KeyspaceConfig<K>) {
    super(cluster, config);
  }

  protected serialize(value: number): string {
    return String(value);
  }

  protected deserialize(text: string): number {
    return parseFloat(text);
  }

  /** Adds `delta` (a missing key counts as 0); returns the new value. */
  async increment(key: K, delta: number = 1, options?: WriteOptions): Promise<number> {
    const ttl = this.ttl(options);
    return this.op("increment", true, [key], (store, [k]) => store.incrByFloat(k!, delta, ttl));
  }

  /** Subtracts `delta` (a missing key counts as 0); returns the new value. */
  async decrement(key: K, delta: number = 1, options?: WriteOptions): Promise<number> {
    const ttl = this.ttl(options);
    return this.op("decrement", true, [key], (store, [k]) => store.incrByFloat(k!, -delta, ttl));
  }
}

/** Values stored as JSON. */
export class StructKeyspace<K, V> extends BasicKeyspace<K, V> {
  constructor(cluster: CacheCluster, config: KeyspaceConfig<K>) {
    super(cluster, config);
  }

  protected serialize(value: V): string {
    return JSON.stringify(value);
  }

  protected deserialize(text: string): V {
    return JSON.parse(text) as V;
  }
}
