import path from "node:path";
import { InvalidArgument } from "./errors.ts";

/**
 * Where the local provider keeps an object: each "/"-separated segment of the name is a
 * folder, the last one a file ending in "@". Segments are escaped so that the tree means
 * the same on every filesystem:
 *   - only a-z, 0-9, "-", "_" and "." stay as they are; every other byte of the UTF-8
 *     form (capitals included) becomes %XX, so a case-insensitive filesystem (macOS,
 *     Windows) never merges "A.png" and "a.png", and none re-normalises Unicode;
 *   - a leading "." is escaped too, so no segment is hidden, "." or "..", and entries
 *     starting with "." (temporary files) are never objects;
 *   - "@" marks files and never occurs in an escaped segment, so an object "a" (file
 *     "a@") and objects under "a/" (folder "a") live side by side, as they do in S3.
 * Names arrive validated (names.ts); the resolved path is still checked to stay inside
 * the bucket's folder, whatever the name.
 */
export const objectSuffix = "@";

/** Most filesystems allow 255 bytes per path component; one goes to the suffix. */
export const maxEncodedSegment = 254;

export function encodeSegment(segment: string): string {
  let out = "";
  for (const byte of Buffer.from(segment, "utf8")) {
    const literal = (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39) || byte === 0x2d || byte === 0x5f || (byte === 0x2e && out !== "");
    out += literal ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** The segment an entry name stands for, or null for anything encodeSegment never writes. */
export function decodeSegment(entry: string): string | null {
  if (!/^(?:[a-z0-9_-]|%[0-9A-F]{2})(?:[a-z0-9._-]|%[0-9A-F]{2})*$/.test(entry)) return null;
  const bytes = Buffer.from(entry.replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), "latin1");
  const segment = bytes.toString("utf8");
  // Only the canonical form: an entry someone else put there is not an object.
  return encodeSegment(segment) === entry ? segment : null;
}

/** The file holding object `name` of the bucket whose folder is `bucketDir` (absolute). */
export function objectFile(bucketDir: string, name: string): string {
  const segments = name.split("/").map((segment) => {
    const encoded = encodeSegment(segment);
    if (encoded.length > maxEncodedSegment) {
      throw new InvalidArgument(
        `object name segment ${JSON.stringify(segment.slice(0, 40))}… is too long for local storage: ${encoded.length} bytes once escaped, at most ${maxEncodedSegment} (non-ASCII bytes and capitals take 3)`,
      );
    }
    return encoded;
  });
  const file = path.resolve(bucketDir, ...segments.slice(0, -1), segments.at(-1)! + objectSuffix);
  if (!file.startsWith(bucketDir + path.sep)) throw new InvalidArgument(`object name ${JSON.stringify(name)} leaves its bucket`);
  return file;
}
