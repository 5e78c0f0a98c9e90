import { readdir } from "node:fs/promises";
import path from "node:path";
import { decodeSegment, objectSuffix } from "./local-paths.ts";

export interface FoundObject {
  readonly name: string;
  readonly file: string;
}

interface Child {
  readonly entry: string;
  /** The segment, with "/" after a folder's: names under "a/" sort after "a" and "a-b", before "a0". */
  readonly key: Buffer;
  /** The object's name, or for a folder the prefix of every name under it. */
  readonly name: string;
  readonly folder: boolean;
}

/**
 * Objects under `bucketDir` whose names start with `prefix`, in the byte order of their
 * UTF-8 names, as S3 lists them. Each folder is read and sorted on its own, and a folder
 * sorts by its segment plus "/", so walking depth-first yields the whole bucket in name
 * order; folders that cannot hold the prefix are skipped. Nothing is read ahead: a
 * caller that stops after `limit` objects reads only the folders it went through.
 */
export async function* walkObjects(bucketDir: string, prefix: string): AsyncGenerator<FoundObject> {
  yield* walkFolder(bucketDir, "", prefix);
}

async function* walkFolder(dir: string, namePrefix: string, prefix: string): AsyncGenerator<FoundObject> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    // A bucket never written to has no folder; a folder pruned by a concurrent remove is empty.
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  const children: Child[] = [];
  for (const entry of entries) {
    const folder = entry.isDirectory();
    if (!folder && !(entry.isFile() && entry.name.endsWith(objectSuffix))) continue;
    const segment = decodeSegment(folder ? entry.name : entry.name.slice(0, -objectSuffix.length));
    if (segment === null) continue; // temporary files, and anything not written by this provider
    const key = folder ? `${segment}/` : segment;
    children.push({ entry: entry.name, key: Buffer.from(key, "utf8"), name: namePrefix + key, folder });
  }
  children.sort((a, b) => Buffer.compare(a.key, b.key));
  for (const child of children) {
    if (!child.folder) {
      if (child.name.startsWith(prefix)) yield { name: child.name, file: path.join(dir, child.entry) };
    } else if (child.name.startsWith(prefix) || prefix.startsWith(child.name)) {
      yield* walkFolder(path.join(dir, child.entry), child.name, prefix);
    }
  }
}
