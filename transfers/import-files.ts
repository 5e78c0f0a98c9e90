import { Bucket } from "encore.dev/storage/objects";

/**
 * Uploaded import files, kept in parts of at most 1 MiB (`<importId>/<n>`), so that neither
 * the upload nor the job ever holds a whole file: the bucket's API stores and reads whole
 * objects. Private; a job removes its parts when it ends.
 */
export const importFiles = new Bucket("import-files", { versioned: false });

/** The object name of an import's part `n`. */
export const partName = (importId: string, n: number) => `${importId}/${n}`;
