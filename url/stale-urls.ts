import log from "encore.dev/log";
import { setTimeout as sleep } from "node:timers/promises";
import { urlCache } from "./cache";
import { clickCounter } from "./clicks";
import { urlConfig } from "./config";
import { db } from "./db";
import { qrCodes, qrObjectName } from "./qr-codes";

/** Stale rows per batch: each delete is short, so a large table is never locked for long. */
export const defaultBatchSize = 1000;

/** A row old enough to be stale, with no clicks when it was read. */
interface Candidate {
  id: number;
  code: string;
  /** created_at as text: a JavaScript Date keeps milliseconds, the column microseconds, and the cursor must be exact. */
  created_at_text: string;
}

/**
 * Deletes every short URL older than 90 days that was never clicked (SPEC 6.3, 8)
 * and returns how many it removed. Rows with no created_at are never stale.
 *
 * Old rows are walked in (created_at, id) order along urls_created_at_id_idx, one
 * batch at a time with a keyset cursor; each batch is deleted in its own short
 * statement, so clicks and shortens are never held up for long.
 */
export async function removeStaleUrls({ batchSize = defaultBatchSize }: { batchSize?: number } = {}): Promise<number> {
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new RangeError(`batchSize must be a whole number above 0, got ${batchSize}`);
  }
  // A row must not be deleted while clicks on it wait to be written: first this
  // instance writes its own. Other instances write theirs at most one flush
  // interval after counting them (assuming they run the same configuration), so
  // after waiting that long every click counted before the run is in the table.
  await clickCounter.flush();
  await sleep(urlConfig.clickFlushIntervalMs);

  // Computed once: a cutoff moving with each batch would chase rows ageing meanwhile.
  const { cutoff } = (await db.queryRow<{ cutoff: string }>`SELECT (now() - interval '90 days')::text AS cutoff`)!;
  let cursor = { createdAt: "-infinity", id: 0 };
  let removed = 0;
  for (;;) {
    const batch = await db.queryAll<Candidate>`
      SELECT id, code, created_at::text AS created_at_text FROM urls
      WHERE created_at < ${cutoff}::timestamptz
        AND (created_at, id) > (${cursor.createdAt}::timestamptz, ${cursor.id}::int)
        AND clicks = 0
      ORDER BY created_at, id
      LIMIT ${batchSize}`;
    if (batch.length > 0) removed += await deleteUnclicked(batch);
    if (batch.length < batchSize) return removed;
    const last = batch[batch.length - 1]!;
    cursor = { createdAt: last.created_at_text, id: last.id };
  }
}

/**
 * Deletes those of `candidates` that still have no clicks, stored or waiting in
 * this instance's counter, evicts them from this instance's cache, and returns
 * how many went.
 */
export async function deleteUnclicked(candidates: readonly Pick<Candidate, "id" | "code">[]): Promise<number> {
  // Run while no flush is in progress, so a click being written cannot slip
  // between reading the pending codes and the DELETE. A first click counted during
  // the DELETE itself is lost with its row: the link was 90 days unused until then.
  const codes = await clickCounter.whileSettled(async () => {
    const ids = candidates.filter((c) => !clickCounter.hasPending(c.code)).map((c) => c.id);
    if (ids.length === 0) return [];
    const rows = await db.queryAll<{ code: string }>`
      DELETE FROM urls WHERE id = ANY(${ids}::int[]) AND clicks = 0 RETURNING code`;
    return rows.map((r) => r.code);
  });
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
