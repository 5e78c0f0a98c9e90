// What every keyspace does, on whichever store the process has: cache.test.ts runs these
// on the in-process store, cache.redis.test.ts on Redis (REDIS_URL, the redis project).
// Each case writes under keys of its own, so the cases never meet.
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { cacheStore, clusterPrefix } from "../../../internal/cache/mod.ts";
import {
  CacheCluster,
  CacheError,
  CacheKeyExists,
  CacheMiss,
  expireIn,
  expireInHours,
  FloatKeyspace,
  IntKeyspace,
  keepTTL,
  neverExpire,
  NumberListKeyspace,
  NumberSetKeyspace,
  StringKeyspace,
  StringListKeyspace,
  StringSetKeyspace,
  StructKeyspace,
} from "./mod.ts";

interface UserKey {
  id: string;
  region: string;
}
interface User {
  name: string;
  tags: string[];
}

/** How long a key has left, in ms, as the store reports it; null for none. */
async function ttlOf(cluster: string, key: string): Promise<number | null | undefined> {
  return (await (await cacheStore()).inspect(clusterPrefix(cluster) + key))?.ttlMs;
}

export function cacheCases(backend: "memory" | "redis"): void {
  const cluster = new CacheCluster("cases", { evictionPolicy: "allkeys-lru" });
  const strings = new StringKeyspace<string>(cluster, { keyPattern: "str/:key" });
  const ints = new IntKeyspace<string>(cluster, { keyPattern: "int/:key" });
  const floats = new FloatKeyspace<string>(cluster, { keyPattern: "float/:key" });
  const users = new StructKeyspace<UserKey, User>(cluster, { keyPattern: "user/:region/:id", defaultExpiry: expireInHours(1) });
  const lists = new StringListKeyspace<string>(cluster, { keyPattern: "list/:key" });
  const numbers = new NumberListKeyspace<string>(cluster, { keyPattern: "nums/:key" });
  const sets = new StringSetKeyspace<string>(cluster, { keyPattern: "set/:key" });
  const numberSets = new NumberSetKeyspace<string>(cluster, { keyPattern: "nset/:key" });
  const short = new StringKeyspace<string>(cluster, { keyPattern: "short/:key", defaultExpiry: expireIn(60_000) });

  describe(`keyspaces on the ${backend} store`, () => {
    test("the store is the one REDIS_URL selects", async () => {
      expect((await cacheStore()).kind).toBe(backend);
    });

    test("string get/set/replace/setIfNotExists/getAndSet/getAndDelete, with Encore's errors", async () => {
      const k = randomUUID();
      expect(await strings.get(k)).toBeUndefined();
      await expect(strings.replace(k, "x")).rejects.toThrow(new CacheMiss(`str/${k}`));
      await expect(strings.replace(k, "x")).rejects.toThrow(`cache key "str/${k}" not found`);
      await strings.setIfNotExists(k, "first");
      const exists = await strings.setIfNotExists(k, "second").catch((e: unknown) => e);
      expect(exists).toBeInstanceOf(CacheKeyExists);
      expect(exists).toBeInstanceOf(CacheError);
      expect((exists as Error).message).toBe(`cache key "str/${k}" already exists`);
      expect((exists as Error).name).toBe("CacheKeyExists");
      expect(await strings.get(k)).toBe("first");
      await strings.replace(k, "replaced");
      expect(await strings.getAndSet(k, "new")).toBe("replaced");
      expect(await strings.getAndDelete(k)).toBe("new");
      expect(await strings.getAndDelete(k)).toBeUndefined();
      expect(await strings.getAndSet(k, "fresh")).toBeUndefined();
      expect(await strings.delete(k, randomUUID())).toBe(1);
    });

    test("string append, len, getRange and setRange count bytes as Redis does", async () => {
      const k = randomUUID();
      expect(await strings.len(k)).toBe(0);
      expect(await strings.append(k, "hello")).toBe(5);
      expect(await strings.append(k, " world")).toBe(11);
      expect(await strings.getRange(k, 0, 4)).toBe("hello");
      expect(await strings.getRange(k, -5, -1)).toBe("world");
      expect(await strings.getRange(k, 20, 30)).toBe("");
      expect(await strings.setRange(k, 6, "WORLD")).toBe(11);
      expect(await strings.get(k)).toBe("hello WORLD");
      expect(await strings.setRange(k, 13, "!")).toBe(14);
      expect(await strings.get(k)).toBe("hello WORLD\0\0!");
      const e = randomUUID();
      await strings.set(e, "été");
      expect(await strings.len(e)).toBe(5);
    });

    test("multiGet and multiSet keep the keys' order; missing keys are undefined", async () => {
      const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
      await strings.multiSet([
        [a, "A"],
        [c, "C"],
      ]);
      expect(await strings.multiGet(a, b, c)).toEqual(["A", undefined, "C"]);
      await strings.multiSet([[b, "B"]], { expiry: expireIn(30_000) });
      expect(await ttlOf("cases", `str/${b}`)).toBeGreaterThan(20_000);
    });

    test("ints increment and decrement from 0, floored; a non-integer value is Redis's error", async () => {
      const k = randomUUID();
      expect(await ints.increment(k)).toBe(1);
      expect(await ints.increment(k, 10.9)).toBe(11);
      expect(await ints.decrement(k, 3)).toBe(8);
      expect(await ints.decrement(randomUUID())).toBe(-1);
      await ints.set(k, 41.7);
      expect(await ints.get(k)).toBe(41);
      const s = randomUUID();
      await strings.set(s, "abc");
      // Another keyspace's key: the same cluster's store, so the same key space.
      const sameKey = new IntKeyspace<string>(cluster, { keyPattern: "str/:key" });
      await expect(sameKey.increment(s)).rejects.toThrow(
        `cache increment "${clusterPrefix("cases")}str/${s}": redis error: ERR value is not an integer or out of range`,
      );
    });

    test("floats increment and decrement", async () => {
      const k = randomUUID();
      expect(await floats.increment(k, 1.5)).toBe(1.5);
      expect(await floats.decrement(k, 0.25)).toBe(1.25);
      expect(await floats.get(k)).toBe(1.25);
    });

    test("struct keys fill the pattern's fields, values are JSON; '/' in a value is escaped", async () => {
      const id = randomUUID();
      const key = { id, region: "eu/west" };
      await users.set(key, { name: "Ada", tags: ["a", "b"] });
      expect(await users.get(key)).toEqual({ name: "Ada", tags: ["a", "b"] });
      const stored = await (await cacheStore()).inspect(`${clusterPrefix("cases")}user/eu\\/west/${id}`);
      expect(stored).toMatchObject({ type: "string", value: JSON.stringify({ name: "Ada", tags: ["a", "b"] }) });
      expect(await users.get({ id, region: "eu" })).toBeUndefined();
    });

    test("a key starting with __encore is refused", async () => {
      const reserved = new StringKeyspace<string>(cluster, { keyPattern: ":key" });
      await expect(reserved.get("__encore/x")).rejects.toThrow('use of reserved key prefix "__encore"');
    });

    test("expiry: defaultExpiry, a write's own, with(), neverExpire and keepTTL", async () => {
      const id = randomUUID();
      const key = { id, region: "us" };
      await users.set(key, { name: "B", tags: [] });
      const ttl = (await ttlOf("cases", `user/us/${id}`))!;
      expect(ttl).toBeGreaterThan(3_500_000);
      expect(ttl).toBeLessThanOrEqual(3_600_000);
      await users.set(key, { name: "B", tags: [] }, { expiry: neverExpire });
      expect(await ttlOf("cases", `user/us/${id}`)).toBeNull();
      await users.with({ expiry: expireIn(10_000) }).set(key, { name: "C", tags: [] });
      expect(await ttlOf("cases", `user/us/${id}`)).toBeLessThanOrEqual(10_000);
      await users.set(key, { name: "D", tags: [] }, { expiry: keepTTL });
      expect(await ttlOf("cases", `user/us/${id}`)).toBeLessThanOrEqual(10_000);
      expect(await users.get(key)).toEqual({ name: "D", tags: [] });
      // Without any expiry, SET drops the TTL; an increment keeps it.
      const s = randomUUID();
      await strings.set(s, "v", { expiry: expireIn(50_000) });
      await strings.set(s, "w");
      expect(await ttlOf("cases", `str/${s}`)).toBeNull();
      const n = randomUUID();
      await ints.set(n, 1, { expiry: expireIn(50_000) });
      await ints.increment(n);
      expect(await ttlOf("cases", `int/${n}`)).toBeGreaterThan(40_000);
    });

    test("an expired key is gone", async () => {
      const k = randomUUID();
      await short.set(k, "soon", { expiry: expireIn(30) });
      expect(await short.get(k)).toBe("soon");
      await new Promise((resolve) => setTimeout(resolve, 80));
      expect(await short.get(k)).toBeUndefined();
      await expect(short.replace(k, "again")).rejects.toBeInstanceOf(CacheMiss);
    });

    test("lists: push, pop, items, get, set, range, trim, len", async () => {
      const k = randomUUID();
      expect(await lists.pushRight(k, "b", "c")).toBe(2);
      expect(await lists.pushLeft(k, "a0", "a")).toBe(4);
      expect(await lists.items(k)).toEqual(["a", "a0", "b", "c"]);
      expect(await lists.get(k, -1)).toBe("c");
      expect(await lists.get(k, 10)).toBeUndefined();
      await lists.set(k, 1, "A");
      expect(await lists.getRange(k, 1, 2)).toEqual(["A", "b"]);
      await expect(lists.set(k, 10, "x")).rejects.toThrow(/redis error: ERR index out of range$/);
      await expect(lists.set(randomUUID(), 0, "x")).rejects.toThrow(/redis error: ERR no such key$/);
      expect(await lists.popLeft(k)).toBe("a");
      expect(await lists.popRight(k)).toBe("c");
      expect(await lists.len(k)).toBe(2);
      await lists.trim(k, 0, 0);
      expect(await lists.items(k)).toEqual(["A"]);
      expect(await lists.popLeft(k)).toBe("A");
      expect(await lists.popLeft(k)).toBeUndefined();
      expect(await lists.len(k)).toBe(0);
    });

    test("lists: insertBefore/After, removeAll/First/Last, move", async () => {
      const k = randomUUID();
      await numbers.pushRight(k, 1, 2, 1, 3, 1);
      expect(await numbers.insertBefore(k, 3, 9)).toBe(6);
      expect(await numbers.insertAfter(k, 3, 8)).toBe(7);
      expect(await numbers.insertAfter(k, 42, 8)).toBe(-1);
      expect(await numbers.insertAfter(randomUUID(), 1, 8)).toBe(0);
      expect(await numbers.items(k)).toEqual([1, 2, 1, 9, 3, 8, 1]);
      expect(await numbers.removeFirst(k, 1, 1)).toBe(1);
      expect(await numbers.removeLast(k, 1, 1)).toBe(1);
      expect(await numbers.items(k)).toEqual([2, 1, 9, 3, 8]);
      expect(await numbers.removeAll(k, 9)).toBe(1);
      await expect(numbers.removeFirst(k, -1, 1)).rejects.toThrow("count must be non-negative");
      const dst = randomUUID();
      expect(await numbers.move(k, dst, "left", "right")).toBe(2);
      expect(await numbers.move(k, dst, "right", "left")).toBe(8);
      expect(await numbers.items(dst)).toEqual([8, 2]);
      expect(await numbers.move(randomUUID(), dst, "left", "left")).toBeUndefined();
    });

    test("a list key read as a string is Redis's WRONGTYPE", async () => {
      const k = randomUUID();
      await lists.pushLeft(k, "x");
      const asString = new StringKeyspace<string>(cluster, { keyPattern: "list/:key" });
      await expect(asString.get(k)).rejects.toThrow(
        `cache get "${clusterPrefix("cases")}list/${k}": redis error: WRONGTYPE Operation against a key holding the wrong kind of value`,
      );
    });

    test("sets: add, remove, contains, len, items, pop, sample", async () => {
      const k = randomUUID();
      expect(await sets.add(k, "a", "b", "c", "a")).toBe(3);
      expect(await sets.add(k, "c", "d")).toBe(1);
      expect(await sets.remove(k, "d", "zz")).toBe(1);
      expect(await sets.contains(k, "a")).toBe(true);
      expect(await sets.contains(k, "d")).toBe(false);
      expect(await sets.len(k)).toBe(3);
      expect((await sets.items(k)).sort()).toEqual(["a", "b", "c"]);
      expect(await sets.itemsSet(k)).toEqual(new Set(["a", "b", "c"]));
      const sampled = await sets.sampleOne(k);
      expect(["a", "b", "c"]).toContain(sampled);
      expect(new Set(await sets.sample(k, 5))).toEqual(new Set(["a", "b", "c"]));
      const repeated = await sets.sampleWithReplacement(k, 7);
      expect(repeated).toHaveLength(7);
      for (const m of repeated) expect(["a", "b", "c"]).toContain(m);
      const popped = await sets.popOne(k);
      expect(["a", "b", "c"]).toContain(popped);
      expect(await sets.pop(k, 5)).toHaveLength(2);
      expect(await sets.popOne(k)).toBeUndefined();
      expect(await sets.len(k)).toBe(0);
      expect(await sets.sampleOne(k)).toBeUndefined();
    });

    test("sets: diff, intersect, union and their stores, move", async () => {
      const [a, b, dst] = [randomUUID(), randomUUID(), randomUUID()];
      await numberSets.add(a, 1, 2, 3);
      await numberSets.add(b, 2, 3, 4);
      expect((await numberSets.diff(a, b)).sort()).toEqual([1]);
      expect(await numberSets.intersectSet(a, b)).toEqual(new Set([2, 3]));
      expect((await numberSets.union(a, b, randomUUID())).sort()).toEqual([1, 2, 3, 4]);
      expect(await numberSets.unionStore(dst, a, b)).toBe(4);
      expect(await numberSets.diffStore(dst, a, b)).toBe(1);
      expect(await numberSets.items(dst)).toEqual([1]);
      expect(await numberSets.intersectStore(dst, a, randomUUID())).toBe(0);
      expect(await numberSets.len(dst)).toBe(0);
      await expect(numberSets.union()).rejects.toThrow("at least one key must be provided");
      expect(await numberSets.move(a, b, 1)).toBe(true);
      expect(await numberSets.move(a, b, 1)).toBe(false);
      expect(await numberSets.contains(b, 1)).toBe(true);
    });

    test("a cluster's keys start with its name: CacheCluster.named reaches the same keys", async () => {
      const k = randomUUID();
      await strings.set(k, "shared");
      const same = new StringKeyspace<string>(CacheCluster.named("cases"), { keyPattern: "str/:key" });
      expect(await same.get(k)).toBe("shared");
      const other = new StringKeyspace<string>(new CacheCluster("other-cases"), { keyPattern: "str/:key" });
      expect(await other.get(k)).toBeUndefined();
      expect(await (await cacheStore()).get(`${clusterPrefix("cases")}str/${k}`)).toBe("shared");
      expect(clusterPrefix("cases")).toMatch(/^test_[0-9a-f]{8}_cases\/$/);
    });
  });
}
