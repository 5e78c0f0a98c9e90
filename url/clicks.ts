import type { Transaction } from "encore.dev/storage/sqldb";
import { ClickCounter } from "./click-counter";
import { urlConfig } from "./config";
import { db } from "./db";
import { clickFlushes, clickFlushLastSeconds, clickFlushMicroseconds, clicksLost, clicksPending } from "./metrics";

/** Batches below this size are planned as index lookups without help. */
const smallBatch = 100;

/** This instance's click counter, writing to the urls table. */
export const clickCounter = new ClickCounter(writeClicks, urlConfig.clickFlushIntervalMs);

clickCounter.observe({
  flushed(durationMs, ok) {
    clicksPending.set(clickCounter.pendingClicks);
    clickFlushes.with({ outcome: ok ? "written" : "failed" }).increment();
    clickFlushMicroseconds.increment(durationMs * 1000);
    clickFlushLastSeconds.set(durationMs / 1000);
  },
  lost(clicks) {
    clicksLost.increment(clicks);
  },
});

/**
 * Adds `counts[i]` clicks to `codes[i]`, in one UPDATE, and returns the codes it
 * found: a code missing from them had its row deleted (the cleanup job), and its
 * clicks are lost, which the counter reports.
 */
export async function writeClicks(codes: string[], counts: number[]): Promise<string[]> {
  if (codes.length < smallBatch) return addClicks(db, codes, counts);
  await using tx = await db.begin();
  // With the default random_page_cost (4, tuned for spinning disks) a batch of a
  // few thousand codes is planned as a sequential scan of the whole table plus a
  // hash join, which measured twice the cost of looking each code up in
  // urls_code_idx on a cached table. SET LOCAL ends with this transaction.
  await tx.exec`SET LOCAL random_page_cost = 1.1`;
  const updated = await addClicks(tx, codes, counts);
  await tx.commit();
  return updated;
}

async function addClicks(conn: Pick<Transaction, "queryAll">, codes: string[], counts: number[]): Promise<string[]> {
  // Rows in code order: two instances flushing overlapping batches then lock
  // them in the same order and cannot deadlock.
  const order = codes.map((_, i) => i).sort((a, b) => (codes[a]! < codes[b]! ? -1 : 1));
  const rows = await conn.queryAll<{ code: string }>`
    UPDATE urls SET clicks = urls.clicks + v.n
    FROM unnest(${order.map((i) => codes[i]!)}::text[], ${order.map((i) => counts[i]!)}::int[]) AS v(code, n)
    WHERE urls.code = v.code
    RETURNING urls.code`;
  return rows.map((r) => r.code);
}

// On a stop signal, write what is counted and count the rest synchronously. The
// write starts now, before the runtime closes the database (it waits for queries
// in progress), and lookups still draining write their own click before answering.
// A write the database refuses is retried, on a ref'd timer, for up to 8 s (the
// runtime keeps a database open while a query that failed to connect is retried),
// then the clicks left are logged as lost, with their number.
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => void clickCounter.stop().catch(() => {}));
}
