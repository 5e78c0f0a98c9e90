import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { ClickCounter } from "../../click-counter/counter";
import { clickWriter } from "../click-counting/store";
import { db } from "../db";
import { links } from "~encore/clients";
import { StatsReader } from "./reader";

/** A writer of its own, as another process would have. */
const newWriter = () => clickWriter(randomUUID(), 5000);

async function storedClicks(code: string): Promise<number> {
  return (await db.queryRow<{ clicks: number }>`SELECT clicks FROM urls WHERE code = ${code}`)!.clicks;
}

/** A promise and the functions that settle it. */
function gate(): { promise: Promise<void>; open: () => void; fail: (err: Error) => void } {
  let open!: () => void;
  let fail!: (err: Error) => void;
  const promise = new Promise<void>((resolve, reject) => ((open = resolve), (fail = reject)));
  return { promise, open, fail };
}

describe("exact stats without a lock", () => {
  test("under concurrent clicks, flushes and reads, each read is between the clicks answered before it and by its end", async () => {
    const { code } = await links.shorten({ url: "https://exact.example" });
    const counter = new ClickCounter(newWriter(), 3); // flushes all the time
    const reader = new StatsReader(counter);
    let answered = 0;
    let running = true;
    const clicker = async () => {
      while (running) {
        counter.record(code); // a lookup records its click before answering
        answered++;
        if (answered % 7 === 0) await sleep(0);
      }
    };
    const flusher = async () => {
      while (running) {
        await counter.flush();
        await sleep(1); // a flush of nothing resolves at once: give the timers a turn
      }
    };
    const reads: { before: number; seen: number; after: number }[] = [];
    const readerLoop = async () => {
      while (running) {
        const before = answered;
        const seen = (await reader.read(code))!.clicks;
        reads.push({ before, seen, after: answered });
      }
    };
    const load = Promise.all([clicker(), clicker(), flusher(), ...Array.from({ length: 8 }, readerLoop)]);
    // As many reads as the assertions need, however long a busy machine takes to make them.
    while (reads.length < 200) await sleep(20);
    running = false;
    await load;
    await counter.flush();

    expect(reads.filter((r) => r.seen < r.before || r.seen > r.after)).toEqual([]);
    // Not trivially met: reads saw clicks both stored and pending, while flushes ran.
    expect(new Set(reads.map((r) => r.seen)).size).toBeGreaterThan(10);
    expect(await storedClicks(code)).toBe(answered);
  }, 30_000);

  test("a flush that starts during a read's SELECT and fails: the read retries and counts the put-back clicks once", async () => {
    const { code } = await links.shorten({ url: "https://fail-mid-read.example" });
    let failNext = false;
    const write = newWriter();
    const counter = new ClickCounter(async (counts, seq, doubtful) => {
      if (failNext) {
        failNext = false;
        await sleep(30);
        throw new Error("connection reset by peer");
      }
      return write(counts, seq, doubtful);
    }, 60_000);
    for (let i = 0; i < 5; i++) counter.record(code);
    await counter.flush(); // 5 stored
    for (let i = 0; i < 3; i++) counter.record(code); // 3 pending

    let attempts = 0;
    const read = counter.consistentRead(async () => {
      attempts++;
      const selecting = storedClicks(code);
      if (attempts === 1) {
        // The flush takes the 3 pending clicks while the SELECT runs: 5 + 0 would miss them.
        failNext = true;
        void counter.flush();
      }
      const stored = await selecting;
      return stored + counter.pending(code);
    });
    expect(await read).toBe(8);
    expect(attempts).toBe(2);
    expect(counter.pending(code)).toBe(3); // put back by the failed flush
  });

  test("a read arriving during a flush waits for it, and one that cannot get a quiet moment answers 503", async () => {
    const { code } = await links.shorten({ url: "https://flush-wait.example" });
    const held = gate();
    const write = newWriter();
    const counter = new ClickCounter(async (counts, seq, doubtful) => {
      await held.promise;
      return write(counts, seq, doubtful);
    }, 60_000);
    const reader = new StatsReader(counter);
    counter.record(code);
    const flushing = counter.flush(); // held: in flight
    const waited = reader.read(code);
    await sleep(50);
    held.open();
    await flushing;
    expect((await waited)!.clicks).toBe(1);

    const stuck = gate();
    const stuckCounter = new ClickCounter(async () => {
      await stuck.promise;
      return { applied: new Map(), found: new Set() };
    }, 60_000);
    stuckCounter.record(code);
    void stuckCounter.flush(); // never ends while the test waits
    const started = Date.now();
    await expect(new StatsReader(stuckCounter).read(code)).rejects.toMatchObject({ code: "unavailable" });
    expect(Date.now() - started).toBeLessThan(5000);
    stuck.open();
  });

  test("a slow read does not hold click writes up", async () => {
    const { code } = await links.shorten({ url: "https://slow-read.example" });
    const counter = new ClickCounter(newWriter(), 60_000);
    counter.record(code);
    let readDone = false;
    const read = counter
      .consistentRead(async () => {
        await db.exec`SELECT pg_sleep(0.5)`;
        return counter.pending(code);
      })
      .finally(() => (readDone = true));
    await sleep(20);
    await counter.flush();
    expect(readDone).toBe(false); // the flush did not wait for the read
    expect(await storedClicks(code)).toBe(1);
    await read;
  });

  test("concurrent reads share one SELECT per batch, and a full queue answers 503 at once", async () => {
    const made = await Promise.all(Array.from({ length: 4 }, (_, i) => links.shorten({ url: `https://queue.example/${i}` })));
    const counter = new ClickCounter(newWriter(), 60_000);
    counter.record(made[1]!.code);
    const reader = new StatsReader(counter, 3);
    // The first read's SELECT starts on the next microtask, with every read of the tick it
    // came in; once it is running, three wait for the next and the rest are refused.
    const first = reader.read(made[0]!.code);
    await Promise.resolve();
    const reads = [first, ...Array.from({ length: 9 }, (_, i) => reader.read(made[(i + 1) % 4]!.code))];
    const outcomes = await Promise.allSettled(reads);
    const refused = outcomes.filter((o) => o.status === "rejected");
    expect(refused).toHaveLength(6);
    for (const o of refused) expect((o as PromiseRejectedResult).reason).toMatchObject({ code: "unavailable" });
    expect(outcomes.slice(0, 4).map((o) => (o as PromiseFulfilledResult<{ clicks: number } | undefined>).value?.clicks)).toEqual([0, 1, 0, 0]);
    expect(await reader.read("nosuch")).toBeUndefined();
  });

  test("a link's URL and creation time are read once, and afresh for a new link under a deleted one's code", async () => {
    const { code } = await links.shorten({ url: "https://facts.example/first" });
    const reader = new StatsReader(new ClickCounter(newWriter(), 60_000));
    const first = (await reader.read(code))!;
    expect(first.originalUrl).toBe("https://facts.example/first");
    const stored = await db.queryRow<{ created_at: Date }>`SELECT created_at FROM urls WHERE code = ${code}`;
    expect(first.createdAt.getTime()).toBe(stored!.created_at.getTime());
    expect((await reader.read(code))!).toEqual(first); // from what the reader kept: the same answer

    await db.exec`DELETE FROM urls WHERE code = ${code}`;
    expect(await reader.read(code)).toBeUndefined();
    await db.exec`INSERT INTO urls (code, original_url, clicks, created_at) VALUES (${code}, 'https://facts.example/second', 7, '2020-02-02T02:02:02.222Z')`;
    expect(await reader.read(code)).toEqual({ originalUrl: "https://facts.example/second", clicks: 7, createdAt: new Date("2020-02-02T02:02:02.222Z"), workspaceId: null, passwordHash: null });
  });
});
