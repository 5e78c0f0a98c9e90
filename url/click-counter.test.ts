import { describe, expect, test } from "vitest";
import { ClickCounter } from "./click-counter";
import { writeClicks } from "./clicks";
import { db } from "./db";
import { shorten } from "./shorten";

async function storedClicks(code: string): Promise<number> {
  return (await db.queryRow<{ clicks: number }>`SELECT clicks FROM urls WHERE code = ${code}`)!.clicks;
}

describe("ClickCounter", () => {
  test("batches clicks into one write per interval", async () => {
    const { code } = await shorten({ url: "https://batch.example" });
    let writes = 0;
    const counter = new ClickCounter(async (c, n) => {
      writes++;
      return writeClicks(c, n);
    }, 50);
    for (let i = 0; i < 100; i++) counter.record(code);
    expect(await storedClicks(code)).toBe(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(await storedClicks(code)).toBe(100);
    expect(writes).toBe(1);
  });

  test("a failed write keeps its counts and a later write stores them all", async () => {
    const { code } = await shorten({ url: "https://retry.example" });
    let failNext = true;
    const counter = new ClickCounter(async (c, n) => {
      if (failNext) {
        failNext = false;
        throw new Error("connection reset by peer");
      }
      return writeClicks(c, n);
    }, 60_000);
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
    const { code } = await shorten({ url: "https://pending.example" });
    let fail = true;
    const counter = new ClickCounter(async (c, n) => {
      if (fail) throw new Error("connection reset by peer");
      return writeClicks(c, n);
    }, 60_000);
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
    const { code } = await shorten({ url: "https://outage.example" });
    let down = true;
    let attempts = 0;
    const counter = new ClickCounter(async (c, n) => {
      attempts++;
      if (down) throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
      return writeClicks(c, n);
    }, 20);
    for (let i = 0; i < 5; i++) counter.record(code);
    await new Promise((r) => setTimeout(r, 550));
    counter.record(code); // counted during the outage too
    expect(attempts).toBeGreaterThanOrEqual(3);
    expect(attempts).toBeLessThanOrEqual(8); // not a busy loop
    down = false;
    for (const deadline = Date.now() + 3000; (await storedClicks(code)) < 6 && Date.now() < deadline; ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await storedClicks(code)).toBe(6);
    expect(counter.hasPending(code)).toBe(false);
  });

  test("interval 0 writes each click before record's promise resolves", async () => {
    const { code } = await shorten({ url: "https://sync.example" });
    const counter = new ClickCounter(writeClicks, 0);
    await counter.record(code);
    expect(await storedClicks(code)).toBe(1);
  });

  test("stop writes everything counted, then writes each further click at once", async () => {
    const { code } = await shorten({ url: "https://stop.example" });
    const counter = new ClickCounter(writeClicks, 60_000);
    counter.record(code);
    counter.record(code);
    await counter.stop();
    expect(await storedClicks(code)).toBe(2);
    await counter.record(code);
    expect(await storedClicks(code)).toBe(3);
  });
});

describe("writeClicks", () => {
  test("a large batch, in no particular order, adds each code's own count", async () => {
    const links = await Promise.all(Array.from({ length: 300 }, (_, i) => shorten({ url: `https://bulk.example/${i}` })));
    const codes = links.map((l) => l.code).reverse();
    const counts = codes.map((_, i) => (i % 7) + 1);
    await writeClicks(codes, counts);
    await writeClicks(codes.slice(0, 10), counts.slice(0, 10)); // a small batch takes the plain path
    const stored = await db.queryAll<{ code: string; clicks: number }>`
      SELECT code, clicks FROM urls WHERE code = ANY(${codes}::text[])`;
    const byCode = new Map(stored.map((r) => [r.code, r.clicks]));
    codes.forEach((code, i) => expect(byCode.get(code)).toBe(counts[i]! * (i < 10 ? 2 : 1)));
  });
});
