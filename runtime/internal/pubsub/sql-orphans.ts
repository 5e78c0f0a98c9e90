import type { SqlDriver } from "../sql/driver.ts";

/** Messages looked at per statement: each statement's locks and time stay small, whatever the table holds. */
const sweepBatch = 1000;

/**
 * Deletes stored messages that no delivery row refers to, walking the table once in primary-key
 * order, `sweepBatch` messages per statement, and stops at its end: it runs at start, never
 * while the app is idle. A message is stored with its delivery rows in one statement, and its
 * last delivery's ack deletes it in the same statement, so one without any can never be
 * delivered: it was published to a topic without subscriptions before such messages were
 * dropped at publish (sql-provider.ts), or left by a retention sweep that stopped half-way.
 * `stopped` ends the walk early (the provider is closing).
 * Resolves to the number of messages deleted.
 */
export async function sweepOrphanMessages(driver: SqlDriver, stopped: () => boolean): Promise<number> {
  let after = "00000000-0000-0000-0000-000000000000";
  let deleted = 0;
  while (!stopped()) {
    const [row] = (await driver.query(
      `WITH scanned AS (
         SELECT id FROM pubsub_message WHERE id > $1::uuid ORDER BY id LIMIT $2),
       gone AS (
         DELETE FROM pubsub_message m USING scanned s
         WHERE m.id = s.id AND NOT EXISTS (SELECT 1 FROM pubsub_delivery d WHERE d.message_id = m.id)
         RETURNING m.id)
       SELECT (SELECT id::text FROM scanned ORDER BY id DESC LIMIT 1) AS last,
              (SELECT count(*) FROM scanned)::int AS scanned,
              (SELECT count(*) FROM gone)::int AS deleted`,
      [after, sweepBatch],
    )) as { last: string | null; scanned: number; deleted: number }[];
    deleted += row?.deleted ?? 0;
    if (!row?.last || row.scanned < sweepBatch) break;
    after = row.last;
  }
  return deleted;
}
