import type { SqlQueryable } from "../sql/driver.ts";
import type { SubscriptionSpec } from "./provider.ts";

/** Node's setTimeout fires at once for anything longer. */
export const longestTimerMs = 2_147_483_647;

/** A delivery leased to this instance, as the claim returns it. */
export interface Claimed {
  /** Where the leased row version is (its ctid, as text): how its acknowledgement finds it. */
  readonly row_id: string;
  readonly message_id: string;
  readonly attempts: number;
  readonly payload: string;
  readonly published_at: Date;
  readonly traceparent: string | null;
}

export interface ClaimResult {
  readonly claimed: Claimed[];
  /**
   * Milliseconds until the subscription's next delivery is due that this claim did not
   * take (a retry, a lease that may run out, ours included), or null when none is
   * pending: the subscriber's next look. 0 when more are due now.
   */
  readonly nextDueMs: number | null;
}

/** How a delivery ended, for the batched statements that record it. */
export interface Settled {
  readonly messageId: string;
  /** The attempt that ended: only its lease may record the outcome. */
  readonly attempt: number;
}

export interface Failed extends Settled {
  readonly dead: boolean;
  readonly retryInMs: number;
  readonly error: string;
}

/**
 * Leases up to `limit` due deliveries of one subscription until its ack deadline and
 * returns them with their messages, and in the same statement (one round trip, one
 * snapshot) when the next of the rest is due. FOR UPDATE SKIP LOCKED lets any number
 * of instances claim at once without waiting on each other.
 *
 * The next-due time covers the leases taken here (they may run out, the handler
 * hanging) but not their old due times, which are past. min() over no rows is NULL and
 * LEAST skips NULLs, so the result is NULL only when nothing at all is pending.
 * The one-row `next` joined to the claimed rows makes the statement always return a
 * row, so the time is known even when nothing was claimed.
 *
 * The updated rows are found again by `ctid` (stable while the statement holds their
 * lock): joined on the key instead, the planner may hash the whole table, which under
 * a backlog (and the dead row versions a busy queue leaves behind) made a claim of 100
 * take 60 ms instead of 3.
 */
export async function claimDue(db: SqlQueryable, spec: SubscriptionSpec, limit: number): Promise<ClaimResult> {
  const rows = (await db.query(
    `WITH due AS (
       SELECT ctid, message_id FROM pubsub_delivery
       WHERE topic = $1 AND subscription = $2 AND state <> 'dead' AND visible_at <= now()
       ORDER BY visible_at
       LIMIT $4
       FOR UPDATE SKIP LOCKED),
     leased AS (
       UPDATE pubsub_delivery d
       SET state = 'leased', attempts = d.attempts + 1, visible_at = now() + $3 * interval '1 millisecond'
       FROM due
       WHERE d.ctid = due.ctid
       RETURNING d.ctid::text AS row_id, d.message_id, d.attempts, d.payload, d.published_at, d.traceparent),
     next AS (
       SELECT (EXTRACT(EPOCH FROM (LEAST(
                 (SELECT min(visible_at) FROM pubsub_delivery
                  WHERE topic = $1 AND subscription = $2 AND state <> 'dead'
                    AND message_id NOT IN (SELECT message_id FROM due)),
                 CASE WHEN EXISTS (SELECT 1 FROM due) THEN now() + $3 * interval '1 millisecond' END)
               - now())) * 1000)::float8 AS next_due_ms)
     SELECT next.next_due_ms, l.* FROM next LEFT JOIN leased l ON true`,
    [spec.topic, spec.name, spec.ackDeadlineMs, limit],
  )) as unknown as (Claimed & { next_due_ms: number | null })[];
  const ms = rows[0]?.next_due_ms ?? null;
  return {
    claimed: rows.filter((r) => r.message_id !== null),
    nextDueMs: ms === null ? null : Math.min(Math.max(0, Math.ceil(ms)), longestTimerMs),
  };
}

/** A delivery handled successfully, and where the claim left its row. */
export interface Acknowledged extends Settled {
  readonly rowId: string;
}

/**
 * Acknowledges a batch: deletes each delivery still under the lease that ran it (a
 * handler that ran past its deadline must not delete the redelivery that replaced it).
 *
 * The rows are found by where the claim left them (`ctid`, a TID scan), and kept only
 * when they are still that lease: same message, attempt and state. Every other update of
 * a leased row (a new claim once the lease ran out, a retry, a hand-back) happens only
 * after the lease ends, so a row that moved is one this ack must not delete anyway;
 * only a table rewrite by an operator (VACUUM FULL, CLUSTER) moves a live lease, and
 * then its message is delivered again when the lease runs out: at least once.
 * Looking rows up by subscription instead let the planner, on a table without
 * statistics (a new queue; autovacuum off), walk the subscription's whole index for
 * each batch: 0.86 ms an ack against 0.08. The comparisons are written with
 * IS NOT DISTINCT FROM, which no index serves, so the TID scan is the only plan.
 */
export async function acknowledge(db: SqlQueryable, spec: SubscriptionSpec, batch: readonly Acknowledged[]): Promise<void> {
  await db.query(`DELETE FROM pubsub_delivery d WHERE ${stillLeased}`, acknowledgeParams(spec, batch));
}

/** The rows of a batch of acknowledgements still under the lease that ran them ($1 to $4: acknowledgeParams). */
export const stillLeased = `d.ctid = ANY($3::tid[])
       AND (d.topic, d.subscription, d.state) IS NOT DISTINCT FROM ($1, $2, 'leased')
       AND d.message_id::text || '/' || d.attempts = ANY($4::text[])`;

export function acknowledgeParams(spec: SubscriptionSpec, batch: readonly Acknowledged[]): unknown[] {
  return [spec.topic, spec.name, batch.map((a) => a.rowId), batch.map((a) => `${a.messageId}/${a.attempt}`)];
}

/** Schedules a batch of failed deliveries again after their backoff, or dead-letters them; the lease rule as for acks. */
export async function recordFailures(db: SqlQueryable, spec: SubscriptionSpec, batch: readonly Failed[]): Promise<void> {
  await db.query(
    `UPDATE pubsub_delivery d
     SET state = CASE WHEN f.dead THEN 'dead' ELSE 'ready' END,
         visible_at = now() + f.retry_ms * interval '1 millisecond',
         last_error = f.error
     FROM unnest($3::uuid[], $4::int[], $5::bool[], $6::float8[], $7::text[]) AS f (message_id, attempts, dead, retry_ms, error)
     WHERE d.topic = $1 AND d.subscription = $2 AND d.message_id = f.message_id
       AND d.attempts = f.attempts AND d.state = 'leased'`,
    [
      spec.topic,
      spec.name,
      batch.map((f) => f.messageId),
      batch.map((f) => f.attempt),
      batch.map((f) => f.dead),
      batch.map((f) => f.retryInMs),
      batch.map((f) => f.error),
    ],
  );
}

/** Drops deliveries past their retention; dead letters stay until re-driven. */
export async function dropExpired(db: SqlQueryable, spec: SubscriptionSpec): Promise<void> {
  await db.query(
    `DELETE FROM pubsub_delivery
     WHERE topic = $1 AND subscription = $2 AND state <> 'dead'
       AND published_at < now() - $3 * interval '1 millisecond'`,
    [spec.topic, spec.name, spec.messageRetentionMs],
  );
}

/**
 * Hands back leased deliveries that were never started (claimed ahead, then the
 * instance closed or they waited too long): due again at once, their attempt not
 * counted.
 */
export async function release(db: SqlQueryable, spec: SubscriptionSpec, batch: readonly Settled[]): Promise<void> {
  await db.query(
    `UPDATE pubsub_delivery d
     SET state = 'ready', attempts = d.attempts - 1, visible_at = now()
     FROM unnest($3::uuid[], $4::int[]) AS r (message_id, attempts)
     WHERE d.topic = $1 AND d.subscription = $2 AND d.message_id = r.message_id
       AND d.attempts = r.attempts AND d.state = 'leased'`,
    [spec.topic, spec.name, batch.map((s) => s.messageId), batch.map((s) => s.attempt)],
  );
}
