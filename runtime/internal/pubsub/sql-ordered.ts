import type { SqlQueryable } from "../sql/driver.ts";
import type { SubscriptionSpec } from "./provider.ts";
import { acknowledgeParams, longestTimerMs, stillLeased, type Acknowledged, type ClaimResult, type Claimed } from "./sql-deliveries.ts";

// Claiming on an ordered topic (one with an orderingAttribute): only the oldest pending
// delivery of each ordering key (its head, the lowest sequence number among the key's
// deliveries that are not dead) may be leased. A head stays the head while it is
// leased, waits out a retry's backoff, or is handed back; the next delivery of its key
// becomes the head only once the row is deleted (acknowledged, or past its retention)
// or dead-lettered, which only the holder of its lease does after handling it. So no
// two instances ever hold deliveries of one key, and a key's deliveries are handled in
// publish order, a failing one retried before the next.

export interface OrderedClaimResult extends ClaimResult {
  /** Where the next claim starts its walk over the keys (see claimHeads). */
  readonly cursor: string;
}

/**
 * Leases up to `limit` due heads, and tells when the next look is due, in one
 * statement. The heads are found by walking the subscription's keys in the
 * pubsub_delivery_ordering index, one index probe per key (a recursive query that
 * stops once it has `limit` due heads), rather than by looking at every pending
 * delivery: with a deep backlog on few keys, nearly every pending delivery waits behind
 * its key's head. The walk starts after `cursor`, the last key the previous claim took,
 * and wraps around, so under a backlog every key gets its turn.
 *
 * The leases are taken by TID (the walk returns where the heads are) with FOR UPDATE
 * SKIP LOCKED, re-checking that each row is still due: a head another instance leased
 * meanwhile has a new row version, which the TID no longer names, so it is skipped.
 *
 * The next look: now, when the claim took all it could (more heads may be due);
 * otherwise when the first delivery due in the future is (a retry, or a lease that may
 * run out, ours included). Only heads are ever due in the future (leased, or waiting
 * for a retry), so that needs no walk. None pending at all: null.
 */
export async function claimHeads(db: SqlQueryable, spec: SubscriptionSpec, limit: number, cursor: string): Promise<OrderedClaimResult> {
  const rows = (await db.query(
    `WITH RECURSIVE
     after_cursor AS (
       (SELECT ordering_key, ctid, visible_at FROM pubsub_delivery
        WHERE topic = $1 AND subscription = $2 AND state <> 'dead' AND ordering_key > $5
        ORDER BY ordering_key, seq LIMIT 1)
       UNION ALL
       SELECT n.* FROM after_cursor w CROSS JOIN LATERAL (
         SELECT ordering_key, ctid, visible_at FROM pubsub_delivery
         WHERE topic = $1 AND subscription = $2 AND state <> 'dead' AND ordering_key > w.ordering_key
         ORDER BY ordering_key, seq LIMIT 1) n),
     up_to_cursor AS (
       (SELECT ordering_key, ctid, visible_at FROM pubsub_delivery
        WHERE topic = $1 AND subscription = $2 AND state <> 'dead' AND ordering_key <= $5
        ORDER BY ordering_key, seq LIMIT 1)
       UNION ALL
       SELECT n.* FROM up_to_cursor w CROSS JOIN LATERAL (
         SELECT ordering_key, ctid, visible_at FROM pubsub_delivery
         WHERE topic = $1 AND subscription = $2 AND state <> 'dead' AND ordering_key > w.ordering_key AND ordering_key <= $5
         ORDER BY ordering_key, seq LIMIT 1) n),
     heads AS (
       SELECT ctid FROM (SELECT * FROM after_cursor UNION ALL SELECT * FROM up_to_cursor) w
       WHERE visible_at <= now()
       LIMIT $4),
     due AS (
       SELECT ctid, message_id FROM pubsub_delivery
       WHERE ctid = ANY (ARRAY(SELECT ctid FROM heads))
         AND (topic, subscription) IS NOT DISTINCT FROM ($1, $2) AND state <> 'dead' AND visible_at <= now()
       FOR UPDATE SKIP LOCKED),
     leased AS (
       UPDATE pubsub_delivery d
       SET state = 'leased', attempts = d.attempts + 1, visible_at = now() + $3 * interval '1 millisecond'
       FROM due
       WHERE d.ctid = due.ctid
       RETURNING d.ctid::text AS row_id, d.message_id, d.attempts, d.payload, d.published_at, d.traceparent, d.ordering_key),
     next AS (
       SELECT (EXTRACT(EPOCH FROM (LEAST(
                 CASE WHEN (SELECT count(*) FROM due) >= $4 THEN now() END,
                 (SELECT min(visible_at) FROM pubsub_delivery
                  WHERE topic = $1 AND subscription = $2 AND state <> 'dead' AND visible_at > now()),
                 CASE WHEN EXISTS (SELECT 1 FROM due) THEN now() + $3 * interval '1 millisecond' END)
               - now())) * 1000)::float8 AS next_due_ms)
     SELECT next.next_due_ms, l.* FROM next LEFT JOIN leased l ON true`,
    [spec.topic, spec.name, spec.ackDeadlineMs, limit, cursor],
  )) as unknown as (Claimed & { next_due_ms: number | null; ordering_key: string | null })[];
  const claimed = rows.filter((r) => r.message_id !== null);
  const ms = rows[0]?.next_due_ms ?? null;
  return {
    claimed,
    nextDueMs: ms === null ? null : Math.min(Math.max(0, Math.ceil(ms)), longestTimerMs),
    cursor: lastWalked(claimed.map((c) => c.ordering_key!), cursor),
  };
}

/** The last of `keys` the walk from `cursor` took: walking wraps around, so those up to the cursor came last. */
function lastWalked(keys: readonly string[], cursor: string): string {
  if (keys.length === 0) return cursor;
  const wrapped = keys.filter((k) => k <= cursor);
  // The database's collation orders keys; JavaScript's order may differ, which only
  // makes the next walk start elsewhere, never skips a key for good.
  return (wrapped.length > 0 ? wrapped : keys).reduce((a, b) => (b > a ? b : a));
}

/**
 * Acknowledges a batch (as acknowledge() does) and, in the same statement, leases the
 * new head of each key it acknowledged, up to `limit` of them: the key's next message
 * starts without waiting for a claim of its own, which would be a second round trip and
 * a second commit per message of a key. The statement still sees the rows it deletes,
 * so the new head is the oldest pending delivery of the key other than those.
 */
export async function acknowledgeAndLeaseNext(db: SqlQueryable, spec: SubscriptionSpec, batch: readonly Acknowledged[], limit: number): Promise<Claimed[]> {
  return (await db.query(
    `WITH acked AS (
       DELETE FROM pubsub_delivery d WHERE ${stillLeased}
       RETURNING d.ctid, d.ordering_key),
     next AS (
       SELECT n.ctid FROM (SELECT DISTINCT ordering_key FROM acked WHERE ordering_key IS NOT NULL) a
       CROSS JOIN LATERAL (
         SELECT e.ctid, e.visible_at FROM pubsub_delivery e
         WHERE e.topic = $1 AND e.subscription = $2 AND e.state <> 'dead' AND e.ordering_key = a.ordering_key
           AND e.ctid <> ALL (ARRAY(SELECT ctid FROM acked))
         ORDER BY e.seq LIMIT 1) n
       WHERE n.visible_at <= now()
       LIMIT $6),
     due AS (
       SELECT ctid FROM pubsub_delivery
       WHERE ctid = ANY (ARRAY(SELECT ctid FROM next))
         AND (topic, subscription) IS NOT DISTINCT FROM ($1, $2) AND state <> 'dead' AND visible_at <= now()
       FOR UPDATE SKIP LOCKED)
     UPDATE pubsub_delivery d
     SET state = 'leased', attempts = d.attempts + 1, visible_at = now() + $5 * interval '1 millisecond'
     FROM due
     WHERE d.ctid = due.ctid
     RETURNING d.ctid::text AS row_id, d.message_id, d.attempts, d.payload, d.published_at, d.traceparent`,
    [...acknowledgeParams(spec, batch), spec.ackDeadlineMs, limit],
  )) as unknown as Claimed[];
}

/**
 * Gives every delivery of these topics without an ordering key (published while the
 * topic was not ordered, or by an earlier version), dead letters included for when they
 * are redriven, its message id as key: it
 * is then its own key's head, delivered without waiting on any other, as it was
 * published, and the walk finds it.
 */
export async function keyUnkeyed(db: SqlQueryable, topics: readonly string[]): Promise<void> {
  if (topics.length === 0) return;
  await db.query(
    `UPDATE pubsub_delivery SET ordering_key = message_id::text
     WHERE topic = ANY ($1::text[]) AND ordering_key IS NULL`,
    [topics],
  );
}
