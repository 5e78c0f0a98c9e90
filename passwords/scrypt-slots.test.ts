import { describe, expect, test } from "vitest";
import { ScryptSlots, scryptSlotsFor, threadPoolSize } from "./scrypt-slots";

/** Work that holds its slot until let go. */
function heldWork(): { work: () => Promise<string>; letGo: () => void } {
  let letGo = () => {};
  const held = new Promise<void>((resolve) => (letGo = resolve));
  return { work: () => held.then(() => "done"), letGo };
}

describe("ScryptSlots", () => {
  test("runs its concurrency at once, lines up to its bound, and refuses past it at once with 503 and Retry-After", async () => {
    const slots = new ScryptSlots("things", 2, 3);
    const { work, letGo } = heldWork();
    const accepted = Array.from({ length: 5 }, () => slots.run(work));
    expect([slots.running, slots.waiting]).toEqual([2, 3]);
    const refused = await Promise.allSettled([slots.run(work), slots.run(work)]);
    expect(refused).toEqual([
      { status: "rejected", reason: expect.objectContaining({ code: "unavailable", message: "too many things at once on this server; try again in a second", details: { retryAfterSeconds: 1 } }) },
      { status: "rejected", reason: expect.objectContaining({ code: "unavailable" }) },
    ]);
    letGo();
    expect(await Promise.all(accepted)).toEqual(Array(5).fill("done"));
    expect([slots.running, slots.waiting]).toEqual([0, 0]);
    await expect(slots.run(async () => "again")).resolves.toBe("again");
  });

  test("a failed computation frees its slot", async () => {
    const slots = new ScryptSlots("things", 1, 0);
    await expect(slots.run(() => Promise.reject(new Error("scrypt failed")))).rejects.toThrow("scrypt failed");
    await expect(slots.run(async () => "next")).resolves.toBe("next");
  });
});

describe("shares of libuv's thread pool", () => {
  test("UV_THREADPOOL_SIZE is 4 when unset, a whole number from 1 to 1024 otherwise", () => {
    expect(threadPoolSize({})).toBe(4);
    expect(threadPoolSize({ UV_THREADPOOL_SIZE: " 16 " })).toBe(16);
    for (const bad of ["0", "1025", "2.5", "many"]) {
      expect(() => threadPoolSize({ UV_THREADPOOL_SIZE: bad })).toThrow(/invalid configuration: UV_THREADPOOL_SIZE/);
    }
  });

  test.each([
    [4, 1, 2],
    [1, 1, 1],
    [16, 4, 8],
  ])("a pool of %i: %i new hash(es) and %i check(s) at once, each with 8 rounds of line", (pool, newHashes, checks) => {
    const slots = scryptSlotsFor(pool);
    expect([slots.newHashes.concurrency, slots.newHashes.queueLimit]).toEqual([newHashes, newHashes * 8]);
    expect([slots.checks.concurrency, slots.checks.queueLimit]).toEqual([checks, checks * 8]);
  });
});
