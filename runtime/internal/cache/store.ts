// What a cache store does: Redis's commands that Encore's cache client sends
// (runtimes/core/src/cache/client.rs), on keys that already carry the cluster's prefix.
// Two stores implement it: memory-store.ts (in this process) and redis-store.ts.
// Values are UTF-8 text: every keyspace serializes to text (numbers as decimal, structs as JSON).

/**
 * What a write does to the key's time to live. undefined: as the command does by itself
 * (SET drops the TTL, the others keep it); "keep": keeps it (SET KEEPTTL); "persist": drops
 * it (PERSIST); a number: expires that many milliseconds from now (PX, or PEXPIREAT).
 */
export type Ttl = undefined | "keep" | "persist" | number;

export type Side = "left" | "right";
export type SetAlgebra = "diff" | "inter" | "union";

export interface SetOptions {
  readonly ttl: Ttl;
  /** NX: only when the key does not exist; XX: only when it does. */
  readonly condition?: "nx" | "xx";
  /** Return the value the key had (SET ... GET). */
  readonly get?: boolean;
}

/** What SET did: whether it wrote, and (with `get`) the value before. */
export interface SetResult {
  readonly written: boolean;
  readonly previous: string | null;
}

/** A key as the dashboard shows it. */
export interface InspectedKey {
  readonly type: "string" | "list" | "set";
  /** The string; the list's items in order; the set's members, sorted. */
  readonly value: string | readonly string[];
  /** Milliseconds left; null when it does not expire. */
  readonly ttlMs: number | null;
}

export interface CacheStore {
  readonly kind: "memory" | "redis";
  get(key: string): Promise<string | null>;
  mget(keys: readonly string[]): Promise<(string | null)[]>;
  set(key: string, value: string, options: SetOptions): Promise<SetResult>;
  getDel(key: string): Promise<string | null>;
  del(keys: readonly string[]): Promise<number>;
  mset(entries: readonly (readonly [string, string])[], ttl: Ttl): Promise<void>;
  append(key: string, value: string, ttl: Ttl): Promise<number>;
  getRange(key: string, start: number, end: number): Promise<string>;
  setRange(key: string, offset: number, value: string, ttl: Ttl): Promise<number>;
  strlen(key: string): Promise<number>;
  incrBy(key: string, delta: number, ttl: Ttl): Promise<number>;
  incrByFloat(key: string, delta: number, ttl: Ttl): Promise<number>;

  push(key: string, side: Side, values: readonly string[], ttl: Ttl): Promise<number>;
  pop(key: string, side: Side, ttl: Ttl): Promise<string | null>;
  lindex(key: string, index: number): Promise<string | null>;
  lset(key: string, index: number, value: string): Promise<void>;
  lrange(key: string, start: number, stop: number): Promise<string[]>;
  ltrim(key: string, start: number, stop: number): Promise<void>;
  linsert(key: string, where: "before" | "after", pivot: string, value: string, ttl: Ttl): Promise<number>;
  /** LREM: count > 0 from the head, < 0 from the tail, 0 all. */
  lrem(key: string, count: number, value: string, ttl: Ttl): Promise<number>;
  lmove(src: string, dst: string, from: Side, to: Side, ttl: Ttl): Promise<string | null>;
  llen(key: string): Promise<number>;

  sadd(key: string, members: readonly string[], ttl: Ttl): Promise<number>;
  srem(key: string, members: readonly string[], ttl: Ttl): Promise<number>;
  sismember(key: string, member: string): Promise<boolean>;
  spop(key: string, ttl: Ttl): Promise<string | null>;
  spopCount(key: string, count: number, ttl: Ttl): Promise<string[]>;
  srandmember(key: string): Promise<string | null>;
  /** SRANDMEMBER with a count: distinct members when positive, with repeats when negative. */
  srandmemberCount(key: string, count: number): Promise<string[]>;
  smembers(key: string): Promise<string[]>;
  scard(key: string): Promise<number>;
  sAlgebra(op: SetAlgebra, keys: readonly string[]): Promise<string[]>;
  sAlgebraStore(op: SetAlgebra, dest: string, keys: readonly string[], ttl: Ttl): Promise<number>;
  smove(src: string, dst: string, member: string, ttl: Ttl): Promise<boolean>;

  /** The key's type, value and time to live, for the dashboard; null when it does not exist. */
  inspect(key: string): Promise<InspectedKey | null>;
  /** Deletes every key starting with `prefix` (a test file's keys, when it ends). */
  deletePrefix(prefix: string): Promise<number>;
  close(): Promise<void>;
}
