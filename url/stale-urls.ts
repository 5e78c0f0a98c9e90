import log from "encore.dev/log";
import { urlCache } from "./cache";
import { clickCounter } from "./clicks";
import { urlConfig } from "./config";
import { db } from "./db";
import { qrCodes, qrObjectName } from "./qr-codes";

/** Stale rows per batch: each statement is short, so a large table is never locked for long. */
export const defaultBatchSize = 1000;

/**
 * How long a row stays marked before it may go: far above any flush interval, so
 * every click an instance counted before the mark has been written by then; below
 * a day, so the next daily run deletes what the previous one marked.
 */
export const defaultGraceMs = Math.max(12 * 60 * 60 * 1000, 10 * urlConfig.clickFlushIntervalMs);

/** A row met by a walk, with the cursor's key as exact text (a Date keeps milliseconds, the column microseconds). */
interface Candidate {
  id: number;
  code: string;
  key_text: string;
}

export interface StaleUrlsResult {
  /** Rows deleted: marked by an earlier run and still never clicked. */
  removed: number;
  /** Rows newly found stale and marked, to be deleted by a later run. */
  marked: number;
}

/**
 * The cleanup of SPEC 6.3, in two phases, because the clicks an instance has
 * answered wait in its memory for up to a flush interval and no instance can see
 * another's memory:
 *
 * 1. Delete every row marked stale more than `graceMs` ago that still has 0
 *    clicks (checked in the DELETE itself) and no click waiting in this
 *    instance's counter. A row clicked since its mark loses the mark and stays.
 * 2. Mark every unmarked row older than 90 days with 0 clicks (`stale_since`).
 *
 * So a link unused for 90 days goes at the first run at least `graceMs` after it
 * was first seen stale (the next daily run), and any click that is written in
 * between, from whichever instance, keeps it. A click still lost: one answered
 * from a cache within a flush interval of the DELETE, after 90 days and a grace
 * without any; its write then finds no row and reports it as lost (ClickCounter).
 * Rows with no created_at are never stale.
 *
 * Each phase walks its rows along an index, one bounded batch at a time with a
 * keyset cursor, so clicks and shortens are never held up for long; neither
 * waits for the click writer.
 */
export async function removeStaleUrls({
  batchSize = defaultBatchSize,
  graceMs = defaultGraceMs,
}: { batchSize?: number; graceMs?: number } = {}): Promise<StaleUrlsResult> {
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new RangeError(`batchSize must be a whole number above 0, got ${batchSize}`);
  }
  if (!Number.isSafeInteger(graceMs) || graceMs < 0) {
    throw new RangeError(`graceMs must be a whole number from 0, got ${graceMs}`);
  }
  // Computed once: cutoffs moving with each batch would chase rows ageing meanwhile.
  const { markedBefore, createdBefore } = (await db.queryRow<{ markedBefore: string; createdBefore: string }>`
    SELECT (now() - ${graceMs}::int8 * interval '1 millisecond')::text AS "markedBefore",
           (now() - interval '90 days')::text AS "createdBefore"`)!;
  let removed = 0;
  await walk(
    (cursor) => db.queryAll<Candidate>`
      SELECT id, code, stale_since::text AS key_text FROM urls
      WHERE stale_since < ${markedBefore}::timestamptz
        AND (stale_since, id) > (${cursor.key}::timestamptz, ${cursor.id}::int)
      ORDER BY stale_since, id
      LIMIT ${batchSize}`,
    async (batch) => (removed += await deleteUnclicked(batch, markedBefore)),
    batchSize,
  );
  let marked = 0;
  await walk(
    (cursor) => db.queryAll<Candidate>`
      SELECT id, code, created_at::text AS key_text FROM urls
      WHERE created_at < ${createdBefore}::timestamptz
        AND (created_at, id) > (${cursor.key}::timestamptz, ${cursor.id}::int)
        AND clicks = 0 AND stale_since IS NULL
      ORDER BY created_at, id
      LIMIT ${batchSize}`,
    async (batch) => {
      const rows = await db.queryAll<{ id: number }>`
        UPDATE urls SET stale_since = now()
        WHERE id = ANY(${batch.map((c) => c.id)}::int[]) AND clicks = 0 AND stale_since IS NULL
        RETURNING id`;
      marked += rows.length;
    },
    batchSize,
  );
  return { removed, marked };
}

/** Reads batches along a keyset cursor and hands each to `handle`, until one comes back short. */
async function walk(
  next: (cursor: { key: string; id: number }) => Promise<Candidate[]>,
  handle: (batch: Candidate[]) => Promise<unknown>,
  batchSize: number,
): Promise<void> {
  let cursor = { key: "-infinity", id: 0 };
  for (;;) {
    const batch = await next(cursor);
    if (batch.length > 0) await handle(batch);
    if (batch.length < batchSize) return;
    const last = batch[batch.length - 1]!;
    cursor = { key: last.key_text, id: last.id };
  }
}

/**
 * Of `candidates` (rows marked before `markedBefore`), deletes those still never
 * clicked and with no click waiting in this instance's counter, unmarks the ones
 * clicked since, evicts the deleted from this instance's cache and their QR
 * images, and returns how many went.
 */
export async function deleteUnclicked(candidates: readonly Pick<Candidate, "id" | "code">[], markedBefore: string): Promise<number> {
  const ids = candidates.filter((c) => !clickCounter.hasPending(c.code)).map((c) => c.id);
  const rows = await db.queryAll<{ code: string }>`
    DELETE FROM urls WHERE id = ANY(${ids}::int[]) AND clicks = 0 AND stale_since < ${markedBefore}::timestamptz
    RETURNING code`;
  // A mark on a clicked row is only noise for the next walks: clicks never go down.
  await db.exec`UPDATE urls SET stale_since = NULL WHERE id = ANY(${candidates.map((c) => c.id)}::int[]) AND clicks > 0`;
  const codes = rows.map((r) => r.code);
  // Only a lookup caches a link, and it counts a click, so a deleted link is in no
  // cache unless it was looked up during this run; this instance's is evicted here.
  for (const code of codes) urlCache.delete(code);
  await removeQrCodes(codes);
  return codes.length;
}

/** How many QR images are deleted at once: enough to hide S3's latency, few enough to be polite. */
const qrRemovalConcurrency = 16;

/**
 * Deletes the removed codes' QR images, whether or not the extension is on now:
 * images stored while it was on would otherwise outlive their links. A failure
 * leaves an image behind, which is logged and harmless: it still shows its short
 * link, and while it exists the code is not handed out again.
 */
async function removeQrCodes(codes: readonly string[]): Promise<void> {
  const queue = [...codes];
  const worker = async () => {
    for (let code = queue.pop(); code !== undefined; code = queue.pop()) {
      await qrCodes.remove(qrObjectName(code)).catch((err: unknown) => log.warn(err, "removing a QR code failed", { code }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(qrRemovalConcurrency, queue.length) }, worker));
}
