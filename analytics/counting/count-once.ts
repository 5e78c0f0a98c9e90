import { cargo } from "async";
import { isoDay } from "../dates/utc-days";
import { db } from "../db";

interface Counted {
  readonly key: string;
  /** YYYY-MM-DD, UTC. */
  readonly day: string;
}

/**
 * Counts the event of `key` unless it was counted already; true when it counts now.
 * The day is the event's own (UTC), not the day it is handled, so a delivery that
 * arrives late, after midnight, still counts for the day the URL was made.
 *
 * Group commit: concurrent calls (the subscription runs up to 100 handlers at once)
 * share one statement. Calls that arrive while a batch is being written wait and go
 * together in the next (up to 500), so a day's row is locked once per batch rather
 * than once per event and handlers do not queue on it one commit at a time; a lone
 * call is written at once. A failed batch fails every call in it.
 */
export function countOnce(key: string, createdAt: Date): Promise<boolean> {
  const year = createdAt.getUTCFullYear();
  // Checked here, not by the database: one malformed event must not fail the batch it would join.
  if (Number.isNaN(year) || year < 1 || year > 9999) {
    return Promise.reject(new Error(`event ${key} has no usable timestamp: ${String(createdAt)}`));
  }
  const event: Counted = { key, day: isoDay(createdAt) };
  return counts.pushAsync<ReadonlySet<Counted>>(event).then((counted) => counted.has(event));
}

const counts = cargo<Counted>(countBatch, 500);

/**
 * Counts a batch of events in one statement, so all or nothing and one round trip: keys
 * not seen before are recorded in processed_events and added to their day's row.
 * Resolves with the events of the batch that counted now; a key twice in one batch
 * counts at its first place.
 *
 * Keys and days are written in sorted order, so two instances writing overlapping
 * batches take their locks in the same order and cannot deadlock (an insert that
 * meets another transaction's uncommitted key waits for it).
 */
async function countBatch(batch: readonly Counted[]): Promise<ReadonlySet<Counted>> {
  const dayOf = new Map<string, string>();
  for (const { key, day } of batch) if (!dayOf.has(key)) dayOf.set(key, day);
  const keys = [...dayOf.keys()].sort();

  const fresh = await db.queryAll<{ event_key: string }>`
    WITH fresh AS (
      INSERT INTO processed_events (event_key) SELECT unnest(${keys}::text[])
      ON CONFLICT (event_key) DO NOTHING
      RETURNING event_key),
    counted AS (
      INSERT INTO daily_stats (date, urls_created)
      SELECT e.day::date, count(*)::int
      FROM fresh JOIN unnest(${keys}::text[], ${keys.map((k) => dayOf.get(k)!)}::text[]) AS e (key, day) ON e.key = fresh.event_key
      GROUP BY e.day ORDER BY e.day
      ON CONFLICT (date) DO UPDATE SET urls_created = daily_stats.urls_created + EXCLUDED.urls_created)
    SELECT event_key FROM fresh`;

  const counted = new Set(fresh.map((r) => r.event_key));
  // Only the first of a key's copies in the batch counts; the others were counted by it.
  return new Set(batch.filter(({ key }) => counted.delete(key)));
}
