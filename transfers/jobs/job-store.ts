import { randomBytes } from "node:crypto";
import { db } from "../db";
import type { ImportFormat } from "../formats/formats";

export type ImportStatus = "uploading" | "queued" | "running" | "done" | "failed";

/** An import job as GET /workspaces/:id/imports/:importId answers it. */
export interface ImportJob {
  id: string;
  workspaceId: string;
  /** The account that uploaded the file. */
  createdBy: string;
  format: ImportFormat;
  fileName?: string;
  /** Whether the file's aliases (codes) were kept; otherwise every link got a random code. */
  keepAliases: boolean;
  status: ImportStatus;
  /** Bytes of the file. */
  bytes: number;
  /** Rows in the file. */
  totalRows: number;
  /** Rows done so far: imported plus failed. */
  rowsRead: number;
  imported: number;
  failed: number;
  /** Why the whole import failed (status failed). */
  error?: string;
  createdAt: Date;
  updatedAt: Date;
  finishedAt?: Date;
}

interface JobRow {
  id: string;
  workspace_id: string;
  created_by: string;
  format: ImportFormat;
  file_name: string | null;
  keep_aliases: boolean;
  status: ImportStatus;
  bytes: string | number;
  parts: number;
  total_rows: number;
  rows_read: number;
  imported: number;
  failed: number;
  error: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
}

/** A job and what only its runner needs. */
export interface StoredJob extends ImportJob {
  parts: number;
}

function toJob(row: JobRow): StoredJob {
  const job: StoredJob = {
    id: row.id,
    workspaceId: row.workspace_id,
    createdBy: row.created_by,
    format: row.format,
    keepAliases: row.keep_aliases,
    status: row.status,
    bytes: Number(row.bytes),
    totalRows: row.total_rows,
    rowsRead: row.rows_read,
    imported: row.imported,
    failed: row.failed,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    parts: row.parts,
  };
  if (row.file_name !== null) job.fileName = row.file_name;
  if (row.error !== null) job.error = row.error;
  if (row.finished_at !== null) job.finishedAt = row.finished_at;
  return job;
}

/** The public shape, without the runner's fields. */
export function publicJob({ parts: _parts, ...job }: StoredJob): ImportJob {
  return job;
}

export interface NewJob {
  readonly workspaceId: string;
  readonly createdBy: string;
  readonly format: ImportFormat;
  readonly fileName: string | null;
  readonly keepAliases: boolean;
}

export async function createJob(job: NewJob): Promise<string> {
  const id = randomBytes(12).toString("base64url");
  await db.exec`
    INSERT INTO imports (id, workspace_id, created_by, format, file_name, keep_aliases, status)
    VALUES (${id}, ${job.workspaceId}, ${job.createdBy}, ${job.format}, ${job.fileName}, ${job.keepAliases}, 'uploading')`;
  return id;
}

/** The file is stored: the job waits for its turn. */
export async function markQueued(id: string, bytes: number, parts: number, totalRows: number): Promise<void> {
  await db.exec`
    UPDATE imports SET status = 'queued', bytes = ${bytes}, parts = ${parts}, total_rows = ${totalRows}, updated_at = now()
    WHERE id = ${id}`;
}

/** The whole import failed: nothing more of it is read. */
export async function markFailed(id: string, error: string): Promise<void> {
  await db.exec`
    UPDATE imports SET status = 'failed', error = ${error}, updated_at = now(), finished_at = now()
    WHERE id = ${id} AND status NOT IN ('done', 'failed')`;
}

export async function jobById(id: string): Promise<StoredJob | null> {
  const row = await db.queryRow<JobRow>`SELECT * FROM imports WHERE id = ${id}`;
  return row === null ? null : toJob(row);
}

/** A workspace's import, or null when it has none by that id. */
export async function jobOf(workspaceId: string, id: string): Promise<StoredJob | null> {
  const row = await db.queryRow<JobRow>`SELECT * FROM imports WHERE id = ${id} AND workspace_id = ${workspaceId}`;
  return row === null ? null : toJob(row);
}

/** A workspace's imports, newest first, `limit` of them before the one `before` (an id). */
export async function jobsOf(workspaceId: string, limit: number, before: string | undefined): Promise<StoredJob[]> {
  const rows = await db.queryAll<JobRow>`
    SELECT * FROM imports
    WHERE workspace_id = ${workspaceId}
      AND (${before ?? null}::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM imports WHERE id = ${before ?? null}))
    ORDER BY created_at DESC, id DESC LIMIT ${limit}`;
  return rows.map(toJob);
}

export interface RowError {
  line: number;
  message: string;
}

/** A job's refused rows by line, `limit` of them after line `after`. */
export async function errorsOf(id: string, after: number, limit: number): Promise<RowError[]> {
  return db.queryAll<RowError>`
    SELECT line, message FROM import_errors WHERE import_id = ${id} AND line > ${after}
    ORDER BY line LIMIT ${limit}`;
}
