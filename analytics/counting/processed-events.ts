import { db } from "../db";

/**
 * How long the key of a counted event is kept: 14 days. A key must outlive every
 * later copy of its event. Copies come from two places:
 * - pub/sub redelivers a message until it is acknowledged, for at most its retention
 *   (Encore's default messageRetention, 7 days, which track-analytics keeps);
 * - the url service re-publishes an outbox row only until its delete commits: the next
 *   sweep after the database answers again (seconds, or as long as an outage lasts).
 * So the last copy arrives at most 7 days plus the outage after the first was counted;
 * the other 7 days cover an outage of up to a week. What is not covered: a dead letter
 * re-driven by an operator after 14 days counts again.
 */
export const keyRetentionDays = 14;

/** Rows per DELETE: each statement stays short however many keys are due. */
const pruneBatch = 10_000;

/** Drops the keys counted more than `keyRetentionDays` ago; returns how many. */
export async function pruneProcessedEvents(now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - keyRetentionDays * 86_400_000);
  let removed = 0;
  for (;;) {
    const row = await db.queryRow<{ n: number }>`
      WITH due AS (
        SELECT event_key FROM processed_events WHERE processed_at < ${cutoff} LIMIT ${pruneBatch}),
      gone AS (
        DELETE FROM processed_events p USING due WHERE p.event_key = due.event_key RETURNING 1)
      SELECT count(*)::int AS n FROM gone`;
    removed += row!.n;
    if (row!.n < pruneBatch) return removed;
  }
}
