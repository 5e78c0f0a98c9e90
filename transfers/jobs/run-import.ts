import { APIError, ErrCode } from "encore.dev/api";
import log from "encore.dev/log";
import { links, workspaces } from "~encore/clients";
import { mayDo } from "../../access/workspace-roles";
import type { ImportRow } from "../../link-rules/import-rows";
import { db } from "../db";
import { formatOf } from "../formats/formats";
import { FileError, RowError as UnreadableRow, type SourceRecord } from "../formats/records";
import { fileParts, removeParts } from "./file-parts";
import { jobById, markFailed, type RowError, type StoredJob } from "./job-store";

/**
 * Rows sent to the links service at once, and recorded as done at once: its largest batch. One
 * batch at a time, so that the links' ids, and with them the list's and an export's order, follow
 * the file's (two in flight were 15% faster: docs/performance.md).
 */
const batchRows = 500;

/** Thrown for a delivery that finds its job running elsewhere: delivered again later, it takes over if that one died. */
export class RunningElsewhere extends Error {}

/**
 * Runs an import from its recorded progress to the end: reads the file's records in order,
 * skips those already done, sends the others in batches to the links service, and after
 * each batch records in one transaction its failed rows and the new progress. A batch
 * whose links were stored but whose progress was not (a crash between) is sent again and
 * the links service answers the rows it already stored. A file that cannot be read as its
 * format fails the import; an error of a dependency throws, for the topic to retry.
 */
export async function runImport(importId: string): Promise<void> {
  const job = await jobById(importId);
  if (job === null || job.status === "done" || job.status === "failed" || job.status === "uploading") return;
  // Held for the whole run, in a transaction that writes nothing: a runner that dies (its
  // instance gone) loses it with its connection, and the next delivery takes the job over.
  await using runner = await db.begin();
  const held = await runner.queryRow<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(hashtextextended(${`import-runner:${importId}`}, 0)) AS ok`;
  if (!held!.ok) throw new RunningElsewhere(`import ${importId} is running elsewhere; checked again later`);
  // Asked at every run, as every request asks: a member removed, or made a viewer, since the upload imports no more.
  const role = job.workspaceId === job.createdBy ? "owner" : (await workspaces.roleIn({ workspaceId: job.workspaceId, userId: job.createdBy })).role;
  if (role === undefined || !mayDo(role, "write")) {
    await markFailed(importId, "the account that uploaded the file may no longer create links in this workspace");
    await removeParts(importId, job.parts);
    return;
  }
  const format = formatOf(job.format);
  let done = job.rowsRead;
  let index = 0;
  const started = performance.now();
  const spent = { storing: 0 };
  let pending: SourceRecord[] = [];
  try {
    for await (const record of format.records(fileParts(importId, job.parts))) {
      if (++index <= job.rowsRead) continue;
      pending.push(record);
      if (pending.length < batchRows) continue;
      if (!(await recordBatch(job, pending, done, spent))) return;
      done += pending.length;
      pending = [];
    }
    if (pending.length > 0 && !(await recordBatch(job, pending, done, spent))) return;
    done += pending.length;
  } catch (err) {
    const reason = err instanceof FileError ? err.message : refusal(err);
    if (reason === null) throw err; // a dependency away: the topic delivers the job again later
    await markFailed(importId, reason);
    await removeParts(importId, job.parts);
    return;
  }
  await db.exec`
    UPDATE imports SET status = 'done', updated_at = now(), finished_at = now()
    WHERE id = ${importId} AND rows_read = ${done} AND status IN ('queued', 'running')`;
  await removeParts(importId, job.parts);
  // How long this run took, and how much of it the links service's storing: what to look at when imports are slow.
  log.info("import done", { importId, rows: done - job.rowsRead, ms: Math.round(performance.now() - started), storingMs: Math.round(spent.storing) });
}

/**
 * Stores one batch and records it, under the job's lock; false when another delivery holds
 * the lock or has moved the job on (this one then leaves the job to it).
 */
async function recordBatch(job: StoredJob, records: readonly SourceRecord[], done: number, spent: { storing: number }): Promise<boolean> {
  await using tx = await db.begin();
  const lock = await tx.queryRow<{ ok: boolean }>`SELECT pg_try_advisory_xact_lock(hashtextextended(${`import:${job.id}`}, 0)) AS ok`;
  if (!lock!.ok) return false;
  const now = await tx.queryRow<{ rows_read: number; status: string }>`SELECT rows_read, status FROM imports WHERE id = ${job.id} FOR UPDATE`;
  if (now === null || now.rows_read !== done || (now.status !== "queued" && now.status !== "running")) return false;
  const { rows, errors } = rowsOf(job, records);
  let imported = 0;
  if (rows.length > 0) {
    const sent = performance.now();
    const { results } = await links.importLinks({ importId: job.id, workspaceId: job.workspaceId, userID: job.createdBy, rows });
    spent.storing += performance.now() - sent;
    for (const result of results) {
      if (result.error === undefined) imported++;
      else errors.push({ line: result.line, message: result.error });
    }
  }
  await tx.exec`
    INSERT INTO import_errors (import_id, line, message)
    SELECT ${job.id}, line, message FROM unnest(${errors.map((e) => e.line)}::int[], ${errors.map((e) => e.message)}::text[]) AS e(line, message)
    ON CONFLICT DO NOTHING`;
  await tx.exec`
    UPDATE imports SET status = 'running', rows_read = ${done + records.length}, imported = imported + ${imported},
      failed = failed + ${errors.length}, updated_at = now()
    WHERE id = ${job.id}`;
  await tx.commit();
  return true;
}

/** The batch's records as rows to store, and those that could not be read as one. */
function rowsOf(job: StoredJob, records: readonly SourceRecord[]): { rows: ImportRow[]; errors: RowError[] } {
  const format = formatOf(job.format);
  const rows: ImportRow[] = [];
  const errors: RowError[] = [];
  for (const record of records) {
    if (record.fields === undefined) {
      errors.push({ line: record.line, message: record.error ?? "not readable" });
      continue;
    }
    try {
      const row = format.row(record.fields, record.line);
      if (!job.keepAliases) delete row.alias;
      rows.push(withoutEmpty(row));
    } catch (err) {
      if (!(err instanceof UnreadableRow)) throw err;
      errors.push({ line: record.line, message: err.message });
    }
  }
  return { rows, errors };
}

/** Fields a source left empty are left out, not sent as undefined. */
function withoutEmpty(row: ImportRow): ImportRow {
  return Object.fromEntries(Object.entries(row).filter(([, value]) => value !== undefined)) as unknown as ImportRow;
}

/** Errors that sending the batch again would meet again: the import fails with them, rather than be retried for hours. */
const refusals: readonly string[] = [ErrCode.InvalidArgument, ErrCode.FailedPrecondition, ErrCode.NotFound, ErrCode.PermissionDenied, ErrCode.OutOfRange];

function refusal(err: unknown): string | null {
  return err instanceof APIError && refusals.includes(err.code) ? `a batch was refused: ${err.message}` : null;
}
