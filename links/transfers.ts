import { api, APIError } from "encore.dev/api";
import { exportPage, type ExportPage } from "./records/export-page";
import type { ImportRow } from "../link-rules/import-rows";
import { importRows, type ImportRowResult } from "./imports/store";

// The links service's side of imports and exports: the transfers service reads the files,
// keeps the jobs and checks who may import or export; the rules for a link stay here, one
// set for POST /shorten, POST /links/bulk and imports. Internal: the transfers service has
// checked the caller's role in the workspace before it calls.

/** Rows one call stores at most. */
export const maxImportBatch = 500;
/** Links one export page holds at most. */
export const maxExportPage = 1000;

export interface ImportBatchRequest {
  /** The import job (transfers service): with each row's line, what makes a batch sent twice store its rows once. */
  importId: string;
  workspaceId: string;
  /** The account importing: the links' creator. */
  userID: string;
  /** 1 to 500 rows. */
  rows: ImportRow[];
}

export interface ImportBatchResponse {
  /** One per row, in row order. */
  results: ImportRowResult[];
}

/**
 * Stores a batch of imported rows, each checked as POST /shorten checks a link and stored
 * whole (with its tags) or not at all; answers each row's code or error. Limits on creating
 * links are not counted here: an import counts once when its file is accepted.
 *
 * Publishes nothing: an imported link was not shortened here (no url-shortened event).
 */
export const importLinks = api(
  { expose: false, method: "POST", path: "/internal/links/import", sensitive: true },
  async ({ importId, workspaceId, userID, rows }: ImportBatchRequest): Promise<ImportBatchResponse> => {
    if (rows.length < 1 || rows.length > maxImportBatch) throw APIError.invalidArgument(`rows must hold 1 to ${maxImportBatch} rows`);
    return { results: await importRows({ importId, workspaceId, userID }, rows) };
  },
);

export interface ExportPageRequest {
  workspaceId: string;
  /** The previous page's nextAfter; 0 for the first page. */
  after: number;
  /** 1 to 1000. */
  limit: number;
  /** Whether password links carry their stored hash (the caller is the workspace's owner or an admin). */
  withPasswordHash: boolean;
}

/** One page of a workspace's links (not deleted), oldest first, with tags, options and exact clicks. Read-only. */
export const exportLinks = api(
  { expose: false, method: "POST", path: "/internal/links/export", sensitive: true },
  async ({ workspaceId, after, limit, withPasswordHash }: ExportPageRequest): Promise<ExportPage> => {
    if (!Number.isInteger(limit) || limit < 1 || limit > maxExportPage) throw APIError.invalidArgument(`limit must be 1 to ${maxExportPage}`);
    return exportPage(workspaceId, after, limit, withPasswordHash);
  },
);
