import type { CacheCluster } from "./cluster.ts";
import { found, Keyspace, type KeyspaceConfig, type WriteOptions } from "./keyspace.ts";

/** Which end of a list. */
export type ListPosition = "left" | "right";

/** Keyspaces of one list per key. Indices count from 0; negative ones from the end (-1 is the last). */
abstract class ListKeyspace<K, V> extends Keyspace<K> {
  protected abstract serializeItem(value: V): string;
  protected abstract deserializeItem(text: string): V;

  /** Pushes onto the head (the last value ends up first); returns the list's length. */
  async pushLeft(key: K, ...values: V[]): Promise<number> {
    const items = values.map((v) => this.serializeItem(v));
    const ttl = this.ttl();
    return this.op("push left", true, [key], (store, [k]) => store.push(k!, "left", items, ttl));
  }

  /** Pushes onto the tail; returns the list's length. */
  async pushRight(key: K, ...values: V[]): Promise<number> {
    const items = values.map((v) => this.serializeItem(v));
    const ttl = this.ttl();
    return this.op("push right", true, [key], (store, [k]) => store.push(k!, "right", items, ttl));
  }

  /** Removes and returns the first value; undefined for an empty list. */
  async popLeft(key: K, options?: WriteOptions): Promise<V | undefined> {
    const ttl = this.ttl(options);
    return this.item(await this.op("pop left", true, [key], (store, [k]) => store.pop(k!, "left", ttl), found));
  }

  /** Removes and returns the last value; undefined for an empty list. */
  async popRight(key: K, options?: WriteOptions): Promise<V | undefined> {
    const ttl = this.ttl(options);
    return this.item(await this.op("pop right", true, [key], (store, [k]) => store.pop(k!, "right", ttl), found));
  }

  /** The list's length; 0 for a missing key. */
  async len(key: K): Promise<number> {
    return this.op("list len", false, [key], (store, [k]) => store.llen(k!));
  }

  /** Keeps only the values from `start` to `stop`, both included. */
  async trim(key: K, start: number, stop: number, options?: WriteOptions): Promise<void> {
    void options; // Encore's client sends no expiry with LTRIM either
    await this.op("list trim", true, [key], (store, [k]) => store.ltrim(k!, start, stop));
  }

  /** Sets the value at `index`; fails for a missing key or an index out of range. */
  async set(key: K, index: number, value: V, options?: WriteOptions): Promise<void> {
    void options; // Encore's client sends no expiry with LSET either
    const text = this.serializeItem(value);
    await this.op("list set", true, [key], (store, [k]) => store.lset(k!, index, text));
  }

  /** The value at `index`, or undefined. */
  async get(key: K, index: number): Promise<V | undefined> {
    return this.item(await this.op("list get", false, [key], (store, [k]) => store.lindex(k!, index), found));
  }

  /** Every value, in order. */
  async items(key: K): Promise<V[]> {
    const texts = await this.op("items", false, [key], (store, [k]) => store.lrange(k!, 0, -1));
    return texts.map((t) => this.deserializeItem(t));
  }

  /** The values from `start` to `stop`, both included. */
  async getRange(key: K, start: number, stop: number): Promise<V[]> {
    const texts = await this.op("get range", false, [key], (store, [k]) => store.lrange(k!, start, stop));
    return texts.map((t) => this.deserializeItem(t));
  }

  /** Inserts before the first `pivot`; returns the new length, -1 without the pivot, 0 for a missing key. */
  async insertBefore(key: K, pivot: V, value: V, options?: WriteOptions): Promise<number> {
    return this.insert("insert before", "before", key, pivot, value, options);
  }

  /** Inserts after the first `pivot`; returns the new length, -1 without the pivot, 0 for a missing key. */
  async insertAfter(key: K, pivot: V, value: V, options?: WriteOptions): Promise<number> {
    return this.insert("insert after", "after", key, pivot, value, options);
  }

  /** Removes every occurrence of `value`; returns how many. */
  async removeAll(key: K, value: V, options?: WriteOptions): Promise<number> {
    return this.remove("remove all", key, 0, value, options);
  }

  /** Removes the first `count` occurrences of `value`; returns how many. */
  async removeFirst(key: K, count: number, value: V, options?: WriteOptions): Promise<number> {
    if (count < 0) throw new Error("count must be non-negative");
    // LREM's 0 means every occurrence: none asked for is none removed.
    if (count === 0) return 0;
    return this.remove("remove first", key, count, value, options);
  }

  /** Removes the last `count` occurrences of `value`; returns how many. */
  async removeLast(key: K, count: number, value: V, options?: WriteOptions): Promise<number> {
    if (count < 0) throw new Error("count must be non-negative");
    if (count === 0) return 0;
    return this.remove("remove last", key, -count, value, options);
  }

  /** Moves one value from an end of `src` to an end of `dst`, atomically; undefined when `src` is empty. */
  async move(src: K, dst: K, srcPos: ListPosition, dstPos: ListPosition, options?: WriteOptions): Promise<V | undefined> {
    const ttl = this.ttl(options);
    return this.item(await this.op("move", true, [src, dst], (store, [s, d]) => store.lmove(s!, d!, srcPos, dstPos, ttl), found));
  }

  private insert(name: string, where: "before" | "after", key: K, pivot: V, value: V, options?: WriteOptions): Promise<number> {
    const [p, v] = [this.serializeItem(pivot), this.serializeItem(value)];
    const ttl = this.ttl(options);
    return this.op(name, true, [key], (store, [k]) => store.linsert(k!, where, p, v, ttl));
  }

  private remove(name: string, key: K, count: number, value: V, options?: WriteOptions): Promise<number> {
    const text = this.serializeItem(value);
    const ttl = this.ttl(options);
    return this.op(name, true, [key], (store, [k]) => store.lrem(k!, count, text, ttl));
  }

  private item(text: string | null): V | undefined {
    return text === null ? undefined : this.deserializeItem(text);
  }
}

/** Lists of strings. */
export class StringListKeyspace<K> extends ListKeyspace<K, string> {
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

/** Lists of numbers. */
export class NumberListKeyspace<K> extends ListKeyspace<K, number> {
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
