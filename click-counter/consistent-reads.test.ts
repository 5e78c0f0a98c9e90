import { describe, expect, test } from "vitest";
import { ConsistentReads } from "./consistent-reads";

/** A read that returns how many times it ran, and lets the test act between its start and end. */
function countingRead(during: (attempt: number) => void | Promise<void> = () => {}) {
  let attempts = 0;
  const read = async () => {
    attempts++;
    await during(attempts);
    return attempts;
  };
  return { read, attempts: () => attempts };
}

describe("ConsistentReads", () => {
  test("with no write about, a read runs once", async () => {
    const reads = new ConsistentReads(() => false, 10);
    const { read, attempts } = countingRead();
    await expect(reads.run(read)).resolves.toBe(1);
    expect(attempts()).toBe(1);
  });

  test("a write that takes its batch during a read makes the read run again after the write ends", async () => {
    const reads = new ConsistentReads(() => false, 10);
    const { read } = countingRead((attempt) => {
      if (attempt === 1) {
        reads.writeStarted();
        setTimeout(() => reads.writeEnded(), 20);
      }
    });
    await expect(reads.run(read)).resolves.toBe(2);
  });

  test("a read that starts while a write runs waits for its end before reading", async () => {
    const reads = new ConsistentReads(() => false, 10);
    reads.writeStarted();
    let writeEnded = false;
    setTimeout(() => {
      writeEnded = true;
      reads.writeEnded();
    }, 30);
    const seen = await reads.run(async () => writeEnded);
    expect(seen).toBe(true);
  });

  test("when writes overlap every attempt, the last attempt holds the next write back until it ends", async () => {
    const reads = new ConsistentReads(() => false, 10);
    const events: string[] = [];
    const writes: Promise<void>[] = [];
    const result = await reads.run(async () => {
      const attempt = events.filter((e) => e.startsWith("read")).length + 1;
      events.push(`read ${attempt}`);
      // A write wants to start during every attempt; unfenced, it runs at once.
      writes.push(
        reads.writeMayStart().then(() => {
          events.push("write");
          reads.writeStarted();
          reads.writeEnded();
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 10));
      events.push(`end ${attempt}`);
      return attempt;
    });
    await Promise.all(writes);
    expect(result).toBe(3);
    expect(events).toEqual(["read 1", "write", "end 1", "read 2", "write", "end 2", "read 3", "end 3", "write"]);
  });

  test("a commit that stays unanswered gives 503 unavailable after about 2 s, not a hang", async () => {
    const reads = new ConsistentReads(() => true, 50);
    const { read, attempts } = countingRead();
    const started = Date.now();
    await expect(reads.run(read)).rejects.toMatchObject({ code: "unavailable" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(attempts()).toBe(0);
  });
});
