// What is particular to the in-process store: expiry that costs nothing while idle. Its
// commands' semantics are checked against Redis's by the keyspace cases
// (encore.dev/storage/cache/cache.cases.ts), run on it and on a real Redis.
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { MemoryStore } from "./memory-store.ts";

beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2031-01-01T00:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("the in-process store's expiry", () => {
  test("arms no timer: a key past its time is gone when next read", async () => {
    const store = new MemoryStore();
    await store.set("a", "1", { ttl: 1_000 });
    await store.push("l", "left", ["x"], 1_000);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(999);
    expect(await store.get("a")).toBe("1");
    expect(await store.inspect("l")).toEqual({ type: "list", value: ["x"], ttlMs: 1 });
    vi.advanceTimersByTime(1);
    expect(await store.get("a")).toBeNull();
    expect(await store.llen("l")).toBe(0);
    expect(store.size).toBe(0);
  });

  test("expired keys nobody reads are freed as writes go on, a few keys per write", async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 40; i++) await store.set(`k${i}`, "v", { ttl: 1_000 });
    await store.set("kept", "v", { ttl: undefined });
    expect(store.size).toBe(41);
    vi.advanceTimersByTime(1_000);
    await store.set("w0", "v", { ttl: undefined });
    expect(store.size).toBe(42 - 8); // eight expired keys looked at, and dropped
    for (let i = 1; i <= 5; i++) await store.set(`w${i}`, "v", { ttl: undefined });
    // The 40 expired keys are gone; the keys without a TTL stay.
    expect(store.size).toBe(7);
    expect(await store.get("kept")).toBe("v");
  });

  test("a later write's TTL replaces the sweep's view of a key: one given no TTL is never swept", async () => {
    const store = new MemoryStore();
    await store.set("a", "1", { ttl: 1_000 });
    await store.set("a", "2", { ttl: undefined });
    vi.advanceTimersByTime(5_000);
    for (let i = 0; i < 3; i++) await store.set(`w${i}`, "v", { ttl: undefined });
    expect(await store.get("a")).toBe("2");
  });
});
