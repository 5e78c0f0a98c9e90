import { api, APIError, type Query } from "encore.dev/api";
import { getAuthData } from "~encore/auth";
import { requireScope } from "../access/scopes";
import { roleAllowing } from "./access";
import { errorsOf, jobOf, jobsOf, publicJob, type ImportJob, type RowError } from "./jobs/job-store";

// A workspace's imports: any member follows them (uploading one is upload-import.ts).

export interface ImportListRequest {
  /** The workspace's id. */
  id: string;
  /** 1 to 100; default 20. */
  limit?: Query<number>;
  /** The previous page's nextBefore. */
  before?: Query<string>;
}

export interface ImportList {
  /** Newest first. */
  imports: ImportJob[];
  /** Pass as `before` for the next page; absent on the last. */
  nextBefore?: string;
}

/** The workspace's imports, newest first, with their progress. Read-only. */
export const listImports = api(
  { expose: true, auth: true, method: "GET", path: "/workspaces/:id/imports" },
  async ({ id, limit = 20, before }: ImportListRequest): Promise<ImportList> => {
    requireScope("links:read");
    await roleAllowing(id, getAuthData()!.userID, "read", "read its imports");
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw APIError.invalidArgument("limit must be 1 to 100");
    const jobs = await jobsOf(id, limit + 1, before);
    const page = jobs.slice(0, limit).map(publicJob);
    return jobs.length > limit ? { imports: page, nextBefore: page[page.length - 1]!.id } : { imports: page };
  },
);

export interface ImportRequest {
  /** The workspace's id. */
  id: string;
  importId: string;
  /** Refused rows after this line (the previous page's nextErrorsAfter); default 0. */
  errorsAfter?: Query<number>;
  /** Refused rows per page: 1 to 1000; default 100. */
  errorsLimit?: Query<number>;
}

export interface ImportProgress extends ImportJob {
  /** Refused rows by line, a page of them, each with why. */
  errors: RowError[];
  /** Pass as errorsAfter for the next page of errors; absent on the last. */
  nextErrorsAfter?: number;
}

/**
 * One import: its status (uploading, queued, running, done, failed), rows in the file, rows
 * read, imported and failed so far, and a page of the refused rows by line. Any member of
 * the workspace; 404 for an import of another workspace. Read-only.
 */
export const getImport = api(
  { expose: true, auth: true, method: "GET", path: "/workspaces/:id/imports/:importId" },
  async ({ id, importId, errorsAfter = 0, errorsLimit = 100 }: ImportRequest): Promise<ImportProgress> => {
    requireScope("links:read");
    await roleAllowing(id, getAuthData()!.userID, "read", "read its imports");
    if (!Number.isInteger(errorsLimit) || errorsLimit < 1 || errorsLimit > 1000) throw APIError.invalidArgument("errorsLimit must be 1 to 1000");
    if (!Number.isInteger(errorsAfter) || errorsAfter < 0) throw APIError.invalidArgument("errorsAfter must be a line number");
    const job = await jobOf(id, importId);
    if (job === null) throw APIError.notFound("import not found");
    const errors = await errorsOf(importId, errorsAfter, errorsLimit + 1);
    const page = errors.slice(0, errorsLimit);
    const progress: ImportProgress = { ...publicJob(job), errors: page };
    if (errors.length > errorsLimit) progress.nextErrorsAfter = page[page.length - 1]!.line;
    return progress;
  },
);
