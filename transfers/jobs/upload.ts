import { APIError } from "encore.dev/api";
import { once } from "node:events";
import { PassThrough } from "node:stream";
import { importFiles, partName } from "../import-files";
import { formatOf, type ImportFormat } from "../formats/formats";
import { FileError } from "../formats/records";
import { partBytes, removeParts } from "./file-parts";

/** A file stored in the bucket, counted. */
export interface StoredFile {
  bytes: number;
  parts: number;
  /** Its records: each a row to import or to report. */
  rows: number;
}

export interface UploadLimits {
  readonly maxBytes: number;
  readonly maxRows: number;
}

/** The request's body, and whether it arrived whole (a client gone mid-upload ends the body early, not always with an error). */
export interface UploadBody extends AsyncIterable<Buffer> {
  readonly complete: boolean;
}

/**
 * Stores an upload in parts of about 1 MiB as its bytes arrive, and reads its records as
 * they pass (the format's own reader, counting only), so that a file too large, with too
 * many rows or not of its format is refused before any of it is imported: 400 naming the
 * limit or the problem, its stored parts removed. Never more than a part and the reader's
 * buffer in memory.
 */
export async function storeUpload(importId: string, body: UploadBody, format: ImportFormat, limits: UploadLimits): Promise<StoredFile> {
  const counted = new PassThrough();
  const counting = countRecords(formatOf(format).records(counted), limits.maxRows);
  const failed = counting.then(() => new Promise<never>(() => {}));
  failed.catch(() => {}); // settled through `counting` below
  let bytes = 0;
  let parts = 0;
  let part: Buffer[] = [];
  let partSize = 0;
  const storePart = async () => {
    await importFiles.upload(partName(importId, parts), Buffer.concat(part), { contentType: "application/octet-stream" });
    parts++;
    part = [];
    partSize = 0;
  };
  try {
    for await (const chunk of body) {
      bytes += chunk.length;
      if (bytes > limits.maxBytes) throw APIError.invalidArgument(`the file is larger than ${limits.maxBytes} bytes, the most one import takes (IMPORT_MAX_BYTES)`);
      part.push(chunk);
      partSize += chunk.length;
      if (partSize >= partBytes) await storePart();
      if (!counted.write(chunk)) await Promise.race([once(counted, "drain"), failed]);
    }
    if (!body.complete) throw APIError.canceled("the upload was cut off before the end of the file: nothing of it is imported");
    if (partSize > 0) await storePart();
    counted.end();
    const rows = await counting;
    return { bytes, parts, rows };
  } catch (err) {
    counted.destroy();
    await removeParts(importId, parts);
    throw err;
  }
}

/** The records of a file; a FileError or more than `maxRows` records is a 400. */
async function countRecords(records: AsyncGenerator<unknown>, maxRows: number): Promise<number> {
  let rows = 0;
  try {
    for await (const _record of records) {
      if (++rows > maxRows) throw APIError.invalidArgument(`the file has more than ${maxRows} rows, the most one import takes (IMPORT_MAX_ROWS): split it`);
    }
  } catch (err) {
    if (err instanceof FileError) throw APIError.invalidArgument(err.message);
    throw err;
  }
  return rows;
}
