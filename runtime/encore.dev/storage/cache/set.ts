import type { SetAlgebra } from "../../../internal/cache/store.ts";
import type { CacheCluster } from "./cluster.ts";
import { found, Keyspace, type KeyspaceConfig, type WriteOptions } from "./keyspace.ts";

const algebraNames: Record<SetAlgebra, string> = { diff: "set diff", inter: "intersect", union: "union" };
const storeNames: Record<SetAlgebra, string> = { diff: "store set diff", inter: "store set intersect", union: "store set union" };

/** Keyspaces of one set of distinct values per key. A missing key is an empty set. */
abstract class SetKeyspace<K, V> extends Keyspace<K> {
  protected abstract serializeItem(value: V): string;
  protected abstract deserializeItem(text: string): V;

  /** Adds the values; returns how many were not there before. */
  async add(key: K, ...members: V[]): Promise<number> {
    const items = members.map((m) => this.serializeItem(m));
    const ttl = this.ttl();
    return this.op("set add", true, [key], (store, [k]) => store.sadd(k!, items, ttl));
  }

  /** Removes the values; returns how many were there. */
  async remove(key: K, ...members: V[]): Promise<number> {
    const items = members.map((m) => this.serializeItem(m));
    const ttl = this.ttl();
    return this.op("set remove", true, [key], (store, [k]) => store.srem(k!, items, ttl));
  }

  /** Removes and returns a random value; undefined for an empty set. */
  async popOne(key: K, options?: WriteOptions): Promise<V | undefined> {
    const ttl = this.ttl(options);
    const text = await this.op("set pop one", true, [key], (store, [k]) => store.spop(k!, ttl), found);
    return text === null ? undefined : this.deserializeItem(text);
  }

  /** Removes and returns up to `count` random values. */
  async pop(key: K, count: number, options?: WriteOptions): Promise<V[]> {
    const ttl = this.ttl(options);
    const texts = await this.op("set pop", true, [key], (store, [k]) => store.spopCount(k!, count, ttl));
    return texts.map((t) => this.deserializeItem(t));
  }

  async contains(key: K, member: V): Promise<boolean> {
    const text = this.serializeItem(member);
    return this.op("set contains", false, [key], (store, [k]) => store.sismember(k!, text), (yes) => (yes ? "hit" : "miss"));
  }

  /** How many values the set holds. */
  async len(key: K): Promise<number> {
    return this.op("set len", false, [key], (store, [k]) => store.scard(k!));
  }

  async items(key: K): Promise<V[]> {
    const texts = await this.op("set items", false, [key], (store, [k]) => store.smembers(k!));
    return texts.map((t) => this.deserializeItem(t));
  }

  async itemsSet(key: K): Promise<Set<V>> {
    return new Set(await this.items(key));
  }

  /** The values of the first set that none of the others hold. */
  async diff(...keys: K[]): Promise<V[]> {
    return this.algebra("diff", keys);
  }

  async diffSet(...keys: K[]): Promise<Set<V>> {
    return new Set(await this.diff(...keys));
  }

  /** Stores diff(...keys) at `destination`; returns its size. */
  async diffStore(destination: K, ...keys: K[]): Promise<number> {
    return this.algebraStore("diff", destination, keys);
  }

  /** The values every set holds. */
  async intersect(...keys: K[]): Promise<V[]> {
    return this.algebra("inter", keys);
  }

  async intersectSet(...keys: K[]): Promise<Set<V>> {
    return new Set(await this.intersect(...keys));
  }

  async intersectStore(destination: K, ...keys: K[]): Promise<number> {
    return this.algebraStore("inter", destination, keys);
  }

  /** The values any set holds. */
  async union(...keys: K[]): Promise<V[]> {
    return this.algebra("union", keys);
  }

  async unionSet(...keys: K[]): Promise<Set<V>> {
    return new Set(await this.union(...keys));
  }

  async unionStore(destination: K, ...keys: K[]): Promise<number> {
    return this.algebraStore("union", destination, keys);
  }

  /** A random value, left in the set; undefined for an empty set. */
  async sampleOne(key: K): Promise<V | undefined> {
    const text = await this.op("set sample one", false, [key], (store, [k]) => store.srandmember(k!), found);
    return text === null ? undefined : this.deserializeItem(text);
  }

  /** Up to `count` distinct random values. */
  async sample(key: K, count: number): Promise<V[]> {
    if (count < 0) throw new Error("count must be non-negative");
    const texts = await this.op("set sample", false, [key], (store, [k]) => store.srandmemberCount(k!, count));
    return texts.map((t) => this.deserializeItem(t));
  }

  /** `count` random values, which may repeat. */
  async sampleWithReplacement(key: K, count: number): Promise<V[]> {
    if (count < 0) throw new Error("count must be non-negative");
    // SRANDMEMBER's 0 is no values either way; a negative count allows repeats.
    if (count === 0) return [];
    const texts = await this.op("set sample", false, [key], (store, [k]) => store.srandmemberCount(k!, -count));
    return texts.map((t) => this.deserializeItem(t));
  }

  /** Moves `member` from `src` to `dst` atomically; false when `src` does not hold it. */
  async move(src: K, dst: K, member: V, options?: WriteOptions): Promise<boolean> {
    const text = this.serializeItem(member);
    const ttl = this.ttl(options);
    return this.op("move", true, [src, dst], (store, [s, d]) => store.smove(s!, d!, text, ttl), (moved) => (moved ? "ok" : "miss"));
  }

  private async algebra(op: SetAlgebra, keys: K[]): Promise<V[]> {
    if (keys.length === 0) throw new Error("at least one key must be provided");
    const texts = await this.op(algebraNames[op], false, keys, (store, k) => store.sAlgebra(op, k));
    return texts.map((t) => this.deserializeItem(t));
  }

  private async algebraStore(op: SetAlgebra, destination: K, keys: K[]): Promise<number> {
    if (keys.length === 0) throw new Error("at least one key must be provided");
    const ttl = this.ttl();
    return this.op(storeNames[op], true, [destination, ...keys], (store, [d, ...k]) => store.sAlgebraStore(op, d!, k, ttl));
  }
}

/** Sets of strings. */
export class StringSetKeyspace<K> extends SetKeyspace<K, string> {
  constructor(cluster: CacheCluster, config: KeyspaceConfig<K>) {
    super(cluster, config);
  }

  protected serializeItem(value: string): string {
    return value;
  }

  protected deserializeItem(text: string): string {
    return text;
  }
}

/** Sets of numbers. */
export class NumberSetKeyspace<K> extends SetKeyspace<K, number> {
  constructor(cluster: CacheCluster, config: KeyspaceConfig<K>) {
    super(cluster, config);
  }

  protected serializeItem(value: number): string {
    return String(value);
  }

  protected deserializeItem(text: string): number {
    return Number(text);
  }
}
