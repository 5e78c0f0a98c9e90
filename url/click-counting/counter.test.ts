import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import { db } from "../db";
import { links } from "~encore/clients";
import { CommitUnknown, type ClickWriter } from "../../click-counter/batches";
import { ClickCounter, type Keeper } from "../../click-counter/counter";
import { clickWriter } from "./store";

async function storedClicks(code: string): Promise<number> {
  return (await db.queryRow<{ clicks: number }>`SELECT clicks FROM urls WHERE code = ${code}`)!.clicks;
}

/** A writer of its own, as another process would have. */
const newWriter = (): ClickWriter => clickWriter(randomUUID(), 5000);

/** The real writer, failing the calls `fail` says to with `err` before anything reaches the database. */
function failing(fail: () => boolean, err = () => new Error("connect ECONNREFUSED 127.0.0.1:5432")): ClickWriter & { calls: number } {
  const write = newWriter();
  const wrapped = Object.assign(
    async (...args: Parameters<ClickWriter>) => {
      wrapped.calls++;
      if (fail()) throw err();
      return write(...args);
    },
    { calls: 0 },
  );
  return wrapped;
}

describe("ClickCounter", () => {
  test("batches clicks into one write per interval", async () => {
    const { code } = await links.shorten({ url: "https://batch.example" });
    const write = failing(() => false);
    const counter = new ClickCounter(write, 50);
    for (let i = 0; i < 100; i++) counter.record(code);
    // Nothing is written before the interval: checked at once, as a read of the row could
    // come after the write on a busy machine.
    expect(write.calls).toBe(0);
    expect(counter.pending(code)).toBe(100);
    // However long the write takes, it is one write of all 100.
    await expect.poll(() => storedClicks(code), { timeout: 10_000 }).toBe(100);
    expect(write.calls).toBe(1);
  });

  test("a failed write keeps its counts and a later write stores them all", async () => {
    const { code } = await links.shorten({ url: "https://retry.example" });
    let failNext = true;
    const counter = new ClickCounter(
      failing(() => {
        const fail = failNext;
        failNext = false;
        return fail;
      }),
      60_000,
    );
    for (let i = 0; i < 7; i++) counter.record(code);
    await counter.flush(); // fails: counts are kept
    expect(await storedClicks(code)).toBe(0);
    expect(counter.pending(code)).toBe(7);
    counter.record(code);
    await counter.flush();
    expect(await storedClicks(code)).toBe(8);
    expect(counter.pending(code)).toBe(0);
  });

  test("hasPending tells which codes have clicks not yet written, failed writes included", async () => {
    const { code } = await links.shorten({ url: "https://pending.example" });
    let fail = true;
    const counter = new ClickCounter(
      failing(() => fail),
      60_000,
    );
    expect(counter.hasPending(code)).toBe(false);
    counter.record(code);
    expect(counter.hasPending(code)).toBe(true);
    expect(counter.hasPending("other1")).toBe(false);
    await counter.flush(); // fails: the click is kept, so still pending
    expect(counter.hasPending(code)).toBe(true);
    fail = false;
    await counter.flush();
    expect(counter.hasPending(code)).toBe(false);
    expect(await storedClicks(code)).toBe(1);
  });

  test("while writes fail it tries again by itself, about every 100 ms, and stores every click once they work", async () => {
    const { code } = await links.shorten({ url: "https://outage.example" });
    let down = true;
    const write = failing(() => down);
    const counter = new ClickCounter(write, 20);
    for (let i = 0; i < 5; i++) counter.record(code);
    await sleep(550);
    counter.record(code); // counted during the outage too
    expect(write.calls).toBeGreaterThanOrEqual(3);
    expect(write.calls).toBeLessThanOrEqual(8); // not a busy loop
    down = false;
    for (const deadline = Date.now() + 3000; (await storedClicks(code)) < 6 && Date.now() < deadline; ) await sleep(50);
    expect(await storedClicks(code)).toBe(6);
    expect(counter.hasPending(code)).toBe(false);
  });

  test("interval 0 writes each click before record's promise resolves", async () => {
    const { code } = await links.shorten({ url: "https://sync.example" });
    const counter = new ClickCounter(newWriter(), 0);
    await counter.record(code);
    expect(await storedClicks(code)).toBe(1);
  });

  test("stop writes everything counted, then writes each further click at once", async () => {
    const { code } = await links.shorten({ url: "https://stop.example" });
    const counter = new ClickCounter(newWriter(), 60_000);
    counter.record(code);
    counter.record(code);
    await counter.stop();
    expect(await storedClicks(code)).toBe(2);
    await counter.record(code);
    expect(await storedClicks(code)).toBe(3);
  });
});

describe("exactly once", () => {
  test("a commit whose answer was lost after it stored the batch: the next write does not store it again", async () => {
    const { code } = await links.shorten({ url: "https://lost-answer.example" });
    const write = newWriter();
    let loseAnswer = true;
    const counter = new ClickCounter(async (...args) => {
      const written = await write(...args); // committed
      if (!loseAnswer) return written;
      loseAnswer = false;
      throw new CommitUnknown(new Error("Connection terminated unexpectedly"));
    }, 60_000);
    for (let i = 0; i < 4; i++) counter.record(code);
    await counter.flush();
    expect(await storedClicks(code)).toBe(4);
    expect(counter.pendingClicks).toBe(4); // in doubt: not known to be stored
    counter.record(code);
    await counter.flush();
    expect(await storedClicks(code)).toBe(5);
    expect(counter.pendingClicks).toBe(0);
  });

  test("a commit whose answer was lost before it stored anything: the next write stores the batch", async () => {
    const { code } = await links.shorten({ url: "https://lost-commit.example" });
    let loseCommit = true;
    const counter = new ClickCounter(
      failing(
        () => {
          const lose = loseCommit;
          loseCommit = false;
          return lose;
        },
        () => new CommitUnknown(new Error("Connection terminated unexpectedly")),
      ),
      60_000,
    );
    for (let i = 0; i < 4; i++) counter.record(code);
    await counter.flush();
    expect(await storedClicks(code)).toBe(0);
    counter.record(code);
    await counter.flush();
    expect(await storedClicks(code)).toBe(5);
  });

  test("stats wait for a commit in doubt to be settled, and then count it once", async () => {
    const { code } = await links.shorten({ url: "https://doubt-read.example" });
    const write = newWriter();
    let loseAnswer = true;
    const counter = new ClickCounter(async (...args) => {
      const written = await write(...args);
      if (!loseAnswer) return written;
      loseAnswer = false;
      throw new CommitUnknown(new Error("Connection terminated unexpectedly"));
    }, 50);
    for (let i = 0; i < 3; i++) counter.record(code);
    await counter.flush(); // stored, answer lost; the next write, within an interval, settles it
    const read = await counter.consistentRead(async () => (await storedClicks(code)) + counter.pending(code));
    expect(read).toBe(3);
  });

  test("a write runs outside the request whose click armed it, so it is in no request's trace or logs", async () => {
    const { code } = await links.shorten({ url: "https://outside-requests.example" });
    const requests = new AsyncLocalStorage<string>();
    const write = newWriter();
    let writeSaw: string | undefined = "no write ran";
    const counter = new ClickCounter(async (...args) => {
      writeSaw = requests.getStore();
      return write(...args);
    }, 20);
    requests.run("the request of the first click", () => counter.record(code));
    await expect.poll(() => storedClicks(code), { timeout: 10_000 }).toBe(1);
    expect(writeSaw).toBeUndefined();
  });

  test("a write blocked by a locked row gives up on the server, stores nothing, and is stored once later", async () => {
    const { code } = await links.shorten({ url: "https://locked-row.example" });
    const counter = new ClickCounter(clickWriter(randomUUID(), 400), 60_000); // lock_timeout 200 ms
    await using locker = await db.begin();
    await locker.exec`SELECT 1 FROM urls WHERE code = ${code} FOR UPDATE`;
    for (let i = 0; i < 6; i++) counter.record(code);
    const started = Date.now();
    await counter.flush(); // fails on lock_timeout, well before any client timeout
    expect(Date.now() - started).toBeLessThan(3000);
    expect(counter.pending(code)).toBe(6);
    await locker.rollback();
    await counter.flush();
    expect(await storedClicks(code)).toBe(6);
  });
});

/**
 * A journal kept in memory, whose rewrites the test decides: the file layer has tests
 * of its own (journal.test.ts); these are of what the counter puts in it.
 */
class MemoryJournal implements Keeper {
  readonly path = "memory";
  records: { seq: number; counts: ReadonlyMap<string, number> }[] = [];
  open = false;
  wantsRewrite = false;
  async append(seq: number, counts: ReadonlyMap<string, number>) {
    this.open = true;
    this.records.push({ seq, counts: new Map(counts) });
  }
  async rewrite(records: readonly { seq: number; counts: ReadonlyMap<string, number> }[]) {
    this.open = true;
    this.records = records.map((r) => ({ seq: r.seq, counts: new Map(r.counts) }));
  }
  async remove() {
    this.open = false;
    this.records = [];
  }
  /** What a replay would store for `code`, with nothing of the writer's stored yet. */
  replayed(code: string): number {
    return this.records.reduce((n, r) => n + (r.counts.get(code) ?? 0), 0);
  }
}

describe("what the counter keeps in its journal", () => {
  test("a rewrite while a write runs, and that write failing after it: each click in the journal once", async () => {
    const { code } = await links.shorten({ url: "https://keeper.example/rewrite" });
    const journal = new MemoryJournal();
    let release!: () => void;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const counter = new ClickCounter(
      async () => {
        if (++calls === 1) await stuck; // a database that stopped answering
        throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
      },
      20,
      journal,
    );
    for (let i = 0; i < 5; i++) counter.record(code);
    await sleep(40); // the write of those 5 runs, stuck
    journal.wantsRewrite = true; // the next keep rewrites the journal whole, stuck batch included
    for (let i = 0; i < 2; i++) counter.record(code);
    await sleep(150); // a tick kept the 2 while the write runs
    expect(journal.replayed(code)).toBe(7);
    journal.wantsRewrite = false;
    release(); // the stuck write fails: its batch is in the journal already
    await sleep(150);
    expect(calls).toBeGreaterThan(1);
    expect(journal.replayed(code)).toBe(7);
    expect(counter.pendingClicks).toBe(7);
    await counter.stop(0);
  });
});
