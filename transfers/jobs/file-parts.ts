import log from "encore.dev/log";
import { importFiles, partName } from "../import-files";

/** Bytes per stored part: what the upload holds before storing it, and what the job reads at a time. */
export const partBytes = 1024 * 1024;

/** An import's file, part after part: one part in memory at a time. */
export async function* fileParts(importId: string, parts: number): AsyncGenerator<Buffer> {
  for (let n = 0; n < parts; n++) yield await importFiles.download(partName(importId, n));
}

/** Removes an import's parts; tidy only (a part left behind is never read again), so failures are logged. */
export async function removeParts(importId: string, parts: number): Promise<void> {
  for (let n = 0; n < parts; n++) {
    await importFiles.remove(partName(importId, n)).catch((err: unknown) => log.warn("an import file's part was not removed", { importId, part: n, error: String(err) }));
  }
}
