import log from "encore.dev/log";
import { Bucket } from "encore.dev/storage/objects";
import { urlCache } from "../link-cache/cache";
import { clickCounter } from "../click-counting/instance";
import { urlConfig } from "../config/url-config";
import { db } from "../db";
import { qrObjectName } from "../../link-rules/qr-images";

/** The links service's QR images: a stale link's goes with it. */
const qrCodes = Bucket.named("qr-codes");

/** Stale rows per batch: each statement is short, so a large table is never locked for long. */
export const defaultBatchSize = 1000;

/**
 * How long a run waits, after fixing its cutoff, before it deletes anything: every
 * instance writes its counted clicks at least once per flush interval, so by then
 * each click any instance answered before the run started is stored. Ten intervals,
 * and at least 2 s, leave room for a slow write.
 */
export const defaultSettleMs = Math.max(2000, 10 * urlConfig.clickFlushIntervalMs);

/** A row met by the walk, with the cursor's key as exact text (a Date keeps milliseconds, the column microseconds). */
interface Candidate {
  id: number;
  code: string;
  key_text: string;
}

/**
 * The cleanup: deletes every `urls` row whose `clicks` is 0 and whose `created_at`
 * is more than 90 days before the run began; returns how many went.
 *
 * Clicks are counted in each instance's memory and written every flush interval, and
 * no instance sees another's memory. So the run fixes its cutoff, waits `settleMs`
 * (by then every click answered before the run began is written, on every instance),
 * and then deletes, checking `clicks = 0` in the DELETE itself and sparing codes with
 * a click still waiting in this instance's counter. A click another instance answers
 * after the run began and has not written when its row goes is lost: the counter
 * finds no row for it, and counts and logs it. Rows with no created_at are never stale.
 *
 * The rows are walked along the index on (created_at, id), one bounded batch at a
 * time with a keyset cursor, so clicks and shortens are never held up for long.
 * Each deletion reaches every instance's cache through the table's trigger
 * (link-cache/evictions.ts); this instance's is evicted here as well.
 */
export async function removeStaleUrls({
  batchSize = defaultBatchSize,
  settleMs = defaultSettleMs,
}: { batchSize?: number; settleMs?: number } = {}): Promise<number> {
  if (!Number.isSafeInteger(batchSize) || batchSize < 1) {
    throw new RangeError(`batchSize must be a whole number above 0, got ${batchSize}`);
  }
  if (!Number.isSafeInteger(settleMs) || settleMs < 0) {
    throw new RangeError(`settleMs must be a whole number from 0, got ${settleMs}`);
  }
  // Fixed once: a cutoff moving with each batch would chase rows ageing meanwhile.
  const { cutoff } = (await db.queryRow<{ cutoff: string }>`SELECT (now() - interval '90 days')::text AS cutoff`)!;
  if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
  let removed = 0;
  let cursor = { key: "-infinity", id: 0 };
  for (;;) {
    const batch = await db.queryAll<Candidate>`
      SELECT id, code, created_at::text AS key_text FROM urls
      WHERE created_at < ${cutoff}::timestamptz
        AND (created_at, id) > (${cursor.key}::timestamptz, ${cursor.id}::int)
        AND clicks = 0
      ORDER BY created_at, id
      LIMIT ${batchSize}`;
    if (batch.length > 0) removed += await deleteUnclicked(batch, cutoff);
    if (batch.length < batchSize) return removed;
    const last = batch[batch.length - 1]!;
    cursor = { key: last.key_text, id: last.id };
  }
}

/**
 * Of `candidates`, deletes those created before `cutoff` that are still never
 * clicked and have no click waiting in this instance's counter, evicts them from
 * this instance's cache, removes their QR images, and returns how many went.
 */
export async function deleteUnclicked(candidates: readonly Pick<Candidate, "id" | "code">[], cutoff: string): Promise<number> {
  const ids = candidates.filter((c) => !clickCounter.hasPending(c.code)).map((c) => c.id);
  if (ids.length === 0) return 0;
  const rows = await db.queryAll<{ code: string }>`
    DELETE FROM urls WHERE id = ANY(${ids}::int[]) AND clicks = 0 AND created_at < ${cutoff}::timestamptz
    RETURNING code`;
  const codes = rows.map((r) => r.code);
  for (const code of codes) urlCache.evict(code);
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
