// The click journal: what a counter keeps on disk while the database cannot take its
// clicks, and how a later start stores what a dead process left there, exactly once.
// A counter of this test stands for another process: the one it "crashes" simply stops
// being used, its journal left as a killed process leaves it (a replay in this same
// process treats a journal with its own pid as a predecessor's, owner.ts).
import { randomUUID } from "node:crypto";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, test } from "vitest";
import { db } from "../db";
import { links } from "~encore/clients";
import { encodeDetails, hourOf } from "../../visitors/dimensions";
import { CommitUnknown, type ClickWriter } from "../../click-counter/batches";
import { ClickCounter } from "../../click-counter/counter";
import { ClickJournal, readJournal } from "../../click-counter/journal";
import { replayJournals } from "./replay";
import { clickWriter, registerWriter } from "./store";

const dir = mkdtempSync(path.join(process.env.DATA_DIR!, "journal-"));

async function storedClicks(code: string): Promise<number> {
  return (await db.queryRow<{ clicks: number }>`SELECT clicks FROM urls WHERE code = ${code}`)!.clicks;
}

/**
 * A counter as a process has it: a registered writer of its own and a journal, writes
 * failing while `down()`. Its tries are the test's flush() calls (its own timer is a
 * minute away): a timer of a few milliseconds waited for with a sleep missed its try on a
 * loaded machine, and the journal it left then broke the next test's replay.
 */
async function processCounter(down: () => boolean) {
  const writer = randomUUID();
  await registerWriter(writer);
  const journal = new ClickJournal(dir, writer);
  const write = clickWriter(writer, 5000);
  const failing: ClickWriter = async (...args) => {
    if (down()) throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
    return write(...args);
  };
  return { writer, journal, write, counter: new ClickCounter(failing, 60_000, journal) };
}

const replay = () => replayJournals({ dir, ownPath: path.join(dir, "none"), writeTimeoutMs: 5000 });

describe("the click journal", () => {
  test("while writes fail, unwritten clicks are on disk; once stored, the journal is gone", async () => {
    const { code } = await links.shorten({ url: "https://journal.example/outage" });
    let down = true;
    const { counter, journal, writer } = await processCounter(() => down);
    for (let i = 0; i < 3; i++) counter.record(code);
    await counter.flush(); // fails: the 3 clicks go to the journal
    for (let i = 0; i < 2; i++) counter.record(code);
    await counter.flush(); // fails again: the 2 new clicks are appended before the try
    const onDisk = await readJournal(journal.path);
    expect(onDisk.header.writer).toBe(writer);
    expect(onDisk.records.reduce((n, r) => n + (r.counts.get(code) ?? 0), 0)).toBe(5);

    down = false;
    await counter.flush();
    expect(await storedClicks(code)).toBe(5);
    expect(existsSync(journal.path)).toBe(false);
  });

  test("a process that died during an outage: the next start stores its journal's clicks, once", async () => {
    const { code } = await links.shorten({ url: "https://journal.example/died" });
    const { counter, journal } = await processCounter(() => true);
    for (let i = 0; i < 4; i++) counter.record(code);
    await counter.flush(); // a failed try, and the clicks on disk
    for (let i = 0; i < 3; i++) counter.record(code);
    await counter.flush(); // appended at the next try
    expect(existsSync(journal.path)).toBe(true);
    // The process dies here: its journal stays as it is. (This counter lives on, failing
    // its tries with nothing new to append, as if it were not there.)
    expect(counter.pendingClicks).toBe(7);

    expect(await replay()).toBe(7);
    expect(await storedClicks(code)).toBe(7);
    expect(existsSync(journal.path)).toBe(false);
    expect(await replay()).toBe(0); // nothing left to store twice
    expect(await storedClicks(code)).toBe(7);
  });

  test("a journal keeps each click's details: the replay stores its analytics with it, once; clicks without details count as unknown", async () => {
    const { code } = await links.shorten({ url: "https://journal.example/details" });
    const { counter, journal } = await processCounter(() => true);
    const hour = hourOf(Date.now()) - 3; // answered hours ago, replayed now: counted in its own hour
    const chrome = { hour, bot: false, referrer: "t.co", country: "GB", browser: "Chrome", os: "Windows", device: "desktop" };
    for (let i = 0; i < 3; i++) counter.record(code, encodeDetails(chrome));
    counter.record(code, encodeDetails({ ...chrome, bot: true, browser: "curl", os: "unknown", device: "bot" }));
    counter.record(code); // as a journal from before analytics holds it
    await counter.flush(); // a failed try: the clicks on disk
    expect(readFileSync(journal.path, "utf8")).toContain("t.co");

    expect(await replay()).toBe(5);
    expect(await storedClicks(code)).toBe(5);
    const rows = await db.queryAll<{ hour: Date; bot: boolean; referrer: string; browser: string; clicks: number }>`
      SELECT hour, bot, referrer, browser, clicks::int FROM link_clicks_hourly WHERE code = ${code} ORDER BY clicks DESC, bot`;
    expect(rows).toEqual([
      { hour: new Date(hour * 3_600_000), bot: false, referrer: "t.co", browser: "Chrome", clicks: 3 },
      { hour: expect.any(Date), bot: false, referrer: "unknown", browser: "unknown", clicks: 1 },
      { hour: new Date(hour * 3_600_000), bot: true, referrer: "t.co", browser: "curl", clicks: 1 },
    ]);
    expect(await replay()).toBe(0);
    const total = await db.queryRow<{ n: number }>`SELECT sum(clicks)::int AS n FROM link_clicks_hourly WHERE code = ${code}`;
    expect(total!.n).toBe(5);
  });

  test("a batch whose commit went unanswered but was stored is not stored again by the replay", async () => {
    const { code } = await links.shorten({ url: "https://journal.example/doubt" });
    const writer = randomUUID();
    await registerWriter(writer);
    const journal = new ClickJournal(dir, writer);
    const write = clickWriter(writer, 5000);
    let calls = 0;
    const counter = new ClickCounter(
      async (...args) => {
        calls++;
        if (calls === 1) {
          await write(...args); // stored; the answer is lost
          throw new CommitUnknown(new Error("Connection terminated unexpectedly"));
        }
        throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
      },
      60_000,
      journal,
    );
    for (let i = 0; i < 5; i++) counter.record(code);
    await counter.flush(); // stored, in doubt, and in the journal under its batch's number
    for (let i = 0; i < 2; i++) counter.record(code);
    await counter.flush(); // the database is away now
    expect(await storedClicks(code)).toBe(5);
    await counter.stop(0);

    expect(await replay()).toBe(2);
    expect(await storedClicks(code)).toBe(7);
  });

  test("a stop past its deadline leaves the clicks in the journal instead of losing them", async () => {
    const { code } = await links.shorten({ url: "https://journal.example/deadline" });
    const { counter, journal } = await processCounter(() => true);
    for (let i = 0; i < 6; i++) counter.record(code);
    await counter.stop(300);
    await sleep(500); // retried every 100 ms, then given up at the deadline
    expect(counter.lostClicks).toBe(0);
    const onDisk = await readJournal(journal.path);
    expect(onDisk.records.reduce((n, r) => n + (r.counts.get(code) ?? 0), 0)).toBe(6);
    expect(await replay()).toBe(6);
    expect(await storedClicks(code)).toBe(6);
  });

  test("a write still running at the stop deadline: its batch is in the journal once, whatever the write's end", async () => {
    const { code } = await links.shorten({ url: "https://journal.example/stuck" });
    const writer = randomUUID();
    await registerWriter(writer);
    const journal = new ClickJournal(dir, writer);
    let release!: () => void;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    const counter = new ClickCounter(
      async () => {
        await stuck; // a database that stopped answering
        throw new Error("Query read timeout");
      },
      60_000,
      journal,
    );
    for (let i = 0; i < 5; i++) counter.record(code);
    const flushing = counter.flush();
    const stopping = counter.stop(200); // queued behind the stuck write
    await sleep(300); // past the deadline: everything, the stuck batch included, is in the journal
    release();
    await flushing; // the write fails now, after the batch went to the journal
    await stopping;
    expect(counter.lostClicks).toBe(0);
    expect(await replay()).toBe(5);
    expect(await storedClicks(code)).toBe(5);
  });

  test("a journal whose process still runs is left alone, and so is one of a writer this database does not know", async () => {
    const { code } = await links.shorten({ url: "https://journal.example/alive" });
    const alive = path.join(dir, `clicks-${randomUUID()}.journal`);
    // The parent of this process (the test runner) is alive.
    writeFileSync(alive, `${JSON.stringify({ clickJournal: 1, writer: randomUUID(), owner: { pid: process.ppid } })}\n${JSON.stringify({ seq: 1, clicks: { [code]: 9 } })}\n`);
    const stranger = path.join(dir, `clicks-${randomUUID()}.journal`);
    writeFileSync(stranger, `${JSON.stringify({ clickJournal: 1, writer: randomUUID(), owner: { pid: 2 ** 22 + 1 } })}\n${JSON.stringify({ seq: 1, clicks: { [code]: 9 } })}\n`);
    expect(await replay()).toBe(0);
    expect(await storedClicks(code)).toBe(0);
    expect(existsSync(alive)).toBe(true);
    expect(existsSync(stranger)).toBe(true);
  });

  test("a journal of another host (a container sharing the folder, whose pid 1 is not ours) is left alone, whatever its pid", async () => {
    const { code } = await links.shorten({ url: "https://journal.example/other-host" });
    const writer = randomUUID();
    await registerWriter(writer);
    const file = path.join(dir, `clicks-${writer}.journal`);
    // Our own pid, which alone would read as a dead earlier process of this host.
    writeFileSync(file, `${JSON.stringify({ clickJournal: 1, writer, owner: { pid: process.pid, host: "another-container" } })}\n${JSON.stringify({ seq: 1, clicks: { [code]: 4 } })}\n`);
    expect(await replay()).toBe(0);
    expect(await storedClicks(code)).toBe(0);
    expect(existsSync(file)).toBe(true);
  });

  test("a record cut short by a crash is ignored; the complete ones are stored", async () => {
    const { code } = await links.shorten({ url: "https://journal.example/torn" });
    const writer = randomUUID();
    await registerWriter(writer);
    const file = path.join(dir, `clicks-${writer}.journal`);
    const header = { clickJournal: 1, writer, owner: { pid: 2 ** 22 + 2 } };
    writeFileSync(file, `${JSON.stringify(header)}\n${JSON.stringify({ seq: 1, clicks: { [code]: 2 } })}\n`);
    appendFileSync(file, `{"seq":1,"clicks":{"${code}":`); // the crash
    expect(await replay()).toBe(2);
    expect(await storedClicks(code)).toBe(2);
  });

  test("rewriting the journal keeps exactly what is unwritten", async () => {
    const made = await Promise.all(Array.from({ length: 50 }, (_, i) => links.shorten({ url: `https://journal.example/rewrite/${i}` })));
    const writer = randomUUID();
    await registerWriter(writer);
    const journal = new ClickJournal(dir, writer, 4096); // rewritten past 4 KiB of appends
    const counter = new ClickCounter(async () => Promise.reject(new Error("connect ECONNREFUSED")), 60_000, journal);
    for (let round = 0; round < 20; round++) {
      for (const { code } of made) counter.record(code);
      await counter.flush();
    }
    // 20 rounds of 50 codes: far more than 4 KiB appended, so rewritten along the way.
    expect(readFileSync(journal.path, "utf8").length).toBeLessThan(20 * 50 * 12);
    await counter.stop(0);
    expect(await replay()).toBe(1000);
    for (const { code } of made) expect(await storedClicks(code)).toBe(20);
  });
});
