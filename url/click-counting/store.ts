import type { Transaction } from "encore.dev/storage/sqldb";
import { db } from "../db";
import { addClickAnalytics } from "../click-analytics/store";
import { workspaceFold } from "../click-analytics/workspace-fold";
import { clicksPerCode, CommitUnknown, sumCounts, type ClickWriter, type Counts, type Doubtful } from "../../click-counter/batches";

/** Batches below this many codes are planned as index lookups without help. */
const smallBatch = 100;

/** How long a writer's row is kept after its last write: a journal left by a crash is replayed within this. */
const writerRetentionDays = 30;

/**
 * The server-side limits of one write of clicks. The server gives up before the
 * runtime's own query timeout (DATABASE_QUERY_TIMEOUT_MS, 30 s by default), so a
 * write stuck behind a locked row fails cleanly, with nothing stored, rather than
 * being abandoned by the client while the server may still commit it; and a
 * transaction whose client vanished (a network black hole) is ended by the server
 * instead of holding its row locks.
 */
export function writeLimits(timeoutMs: number) {
  return {
    lock_timeout: Math.max(1, Math.floor(timeoutMs / 2)),
    statement_timeout: timeoutMs,
    idle_in_transaction_session_timeout: timeoutMs,
  };
}

/**
 * The writer of clicks for `writer` (this process's id), with the server-side
 * limits of `timeoutMs`. One transaction per write:
 *
 * 1. take the writer's row (created if new) and with it the number of its last
 *    batch stored (`seq`); the lock makes a write wait for an earlier one of the
 *    same writer still on the server (a commit that went unanswered);
 * 2. add the counts, plus each doubtful batch the database does not hold yet, to
 *    the links' clicks and to their analytics rows (click-analytics/store.ts);
 * 3. record this batch's number, and commit; then, when workspaces' recent click rows were
 *    added to, arm their fold (click-analytics/workspace-fold.ts).
 *
 * Nothing is committed unless the commit is sent, so a write that fails or times
 * out before it stored nothing; only a commit that goes unanswered leaves the
 * outcome unknown (CommitUnknown), and the next write settles it by `seq`.
 */
export function clickWriter(writer: string, timeoutMs: number): ClickWriter {
  const limits = writeLimits(timeoutMs);
  return async (counts, seq, doubtful) => {
    await using tx = await db.begin();
    await setLimits(tx, limits);
    const row = await tx.queryRow<{ seq: number }>`
      INSERT INTO click_writers (writer) VALUES (${writer})
      ON CONFLICT (writer) DO UPDATE SET writer = EXCLUDED.writer
      RETURNING seq`;
    const applied = sumCounts(...notYetStored(doubtful, row!.seq), counts);
    const { found, toFold } = await addClicks(tx, applied);
    await tx.exec`UPDATE click_writers SET seq = ${seq}, written_at = now() WHERE writer = ${writer}`;
    try {
      await tx.commit();
    } catch (err) {
      throw new CommitUnknown(err);
    } finally {
      // Unanswered too: the rows may be stored, and a fold that finds none costs one statement.
      if (toFold) workspaceFold.due();
    }
    return { applied, found };
  };
}

/** The counts of the batches numbered above `stored`, the writer's last batch the database holds. */
function notYetStored(batches: readonly Doubtful[], stored: number): ReadonlyMap<string, number>[] {
  return batches.filter((b) => b.seq > stored).map((b) => b.counts);
}

/**
 * Stores the batches a dead writer's journal holds, those the database does not
 * hold yet, and drops the writer's row in the same transaction, so a journal is
 * replayed at most once. Resolves with what was stored, or null when the database
 * knows no such writer (the journal belongs to another database, or was replayed).
 */
export async function replayBatches(
  writer: string,
  batches: readonly Doubtful[],
  timeoutMs: number,
): Promise<{ applied: Counts; found: Set<string> } | null> {
  await using tx = await db.begin();
  await setLimits(tx, writeLimits(timeoutMs));
  const row = await tx.queryRow<{ seq: number }>`SELECT seq FROM click_writers WHERE writer = ${writer} FOR UPDATE`;
  if (!row) return null;
  const applied = sumCounts(...notYetStored(batches, row.seq));
  const { found, toFold } = await addClicks(tx, applied);
  await tx.exec`DELETE FROM click_writers WHERE writer = ${writer}`;
  await tx.commit();
  if (toFold) workspaceFold.due();
  return { applied, found };
}

/**
 * Registers a writer before its first write, so that a journal it leaves is known to
 * belong to this database; drops the rows of writers unheard of for 30 days.
 */
export async function registerWriter(writer: string): Promise<void> {
  await db.exec`
    WITH gone AS (DELETE FROM click_writers WHERE written_at < now() - ${writerRetentionDays}::int * interval '1 day')
    INSERT INTO click_writers (writer) VALUES (${writer}) ON CONFLICT (writer) DO NOTHING`;
}

async function setLimits(tx: Transaction, limits: ReturnType<typeof writeLimits>): Promise<void> {
  await tx.exec`
    SELECT set_config('lock_timeout', ${`${limits.lock_timeout}ms`}, true),
           set_config('statement_timeout', ${`${limits.statement_timeout}ms`}, true),
           set_config('idle_in_transaction_session_timeout', ${`${limits.idle_in_transaction_session_timeout}ms`}, true)`;
}

/**
 * Adds the clicks (per click key) to their links and the links' analytics; returns the codes
 * whose row exists, and whether workspaces' recent rows were added to, to fold after the commit.
 */
async function addClicks(tx: Transaction, clicks: ReadonlyMap<string, number>): Promise<{ found: Set<string>; toFold: boolean }> {
  if (clicks.size === 0) return { found: new Set(), toFold: false };
  const { found, anyInWorkspace } = await addToLinks(tx, clicksPerCode(clicks));
  return { found, toFold: await addClickAnalytics(tx, clicks, found, anyInWorkspace) };
}

/** Adds the counts (per code) to their rows; returns the codes whose row exists, and whether any of them is a workspace's link. */
async function addToLinks(tx: Transaction, counts: ReadonlyMap<string, number>): Promise<{ found: Set<string>; anyInWorkspace: boolean }> {
  // Rows in code order: two instances writing overlapping batches then lock them
  // in the same order and cannot deadlock.
  const codes = [...counts.keys()].sort();
  // With the default random_page_cost (4, tuned for spinning disks) a batch of a
  // few thousand codes is planned as a sequential scan of the whole table plus a
  // hash join, which measured twice the cost of looking each code up in
  // urls_code_idx on a cached table. SET LOCAL ends with the transaction.
  if (codes.length >= smallBatch) await tx.exec`SET LOCAL random_page_cost = 1.1`;
  // Codes and counts travel as one text each (a code never holds a line break) rather
  // than as arrays the driver escapes element by element; only the codes without a row
  // come back (almost always none), and one row when some link is a workspace's (whose
  // analytics the flush then adds to), rather than every code updated, which the request
  // thread would parse.
  const codeLines = codes.join("\n");
  const answered = await tx.queryAll<{ code: string | null }>`
    WITH updated AS (
      UPDATE urls SET clicks = urls.clicks + v.n
      FROM unnest(string_to_array(${codeLines}, E'\n'), string_to_array(${codes.map((c) => counts.get(c)!).join(",")}, ',')::int[]) AS v(code, n)
      WHERE urls.code = v.code
      RETURNING urls.code, urls.workspace_id, v.n
    ), evented AS (
      -- The batch's clicks of workspace links, for their webhooks: one outbox row per write,
      -- committed with the counts or not at all, so each click is in exactly one event.
      INSERT INTO link_event_outbox (type, data)
      SELECT 'link.clicked', jsonb_agg(jsonb_build_object('code', u.code, 'workspaceId', u.workspace_id, 'clicks', u.n))
      FROM updated u WHERE u.workspace_id IS NOT NULL
      HAVING count(*) > 0
    )
    SELECT m.code FROM unnest(string_to_array(${codeLines}, E'\n')) AS m(code)
    WHERE NOT EXISTS (SELECT 1 FROM updated u WHERE u.code = m.code)
    UNION ALL
    SELECT NULL WHERE EXISTS (SELECT 1 FROM updated u WHERE u.workspace_id IS NOT NULL)`;
  const found = new Set(codes);
  let anyInWorkspace = false;
  for (const { code } of answered) {
    if (code === null) anyInWorkspace = true;
    else found.delete(code);
  }
  return { found, anyInWorkspace };
}
