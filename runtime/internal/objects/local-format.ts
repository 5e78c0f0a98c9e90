import type { FileHandle } from "node:fs/promises";
import { ObjectsError } from "./errors.ts";

/**
 * One file per object: a small header, then the bytes. Because metadata and content are
 * one file, replacing the file (rename) replaces both at once, and a reader holding the
 * file open keeps reading one consistent version even while it is replaced.
 *
 *   "EOB1" | header length (uint32 BE) | header JSON (UTF-8) | content
 */
export interface ObjectHeader {
  readonly size: number;
  /** Unquoted: the HTTP layer quotes it. */
  readonly etag: string;
  readonly contentType?: string;
  /** Versioned buckets only. */
  readonly version?: string;
}

const magic = Buffer.from("EOB1");
const prefixBytes = magic.length + 4;
/** Enough for any header (content types are at most 255 characters) in one read. */
const firstRead = 4096;

export function encodeHeader(header: ObjectHeader): Buffer {
  const json = Buffer.from(JSON.stringify(header), "utf8");
  const prefix = Buffer.alloc(prefixBytes);
  magic.copy(prefix);
  prefix.writeUInt32BE(json.length, magic.length);
  return Buffer.concat([prefix, json]);
}

/** Reads and checks the header of an open object file; `dataOffset` is where the content starts. */
export async function readHeader(handle: FileHandle, file: string): Promise<{ header: ObjectHeader; dataOffset: number }> {
  const [{ size: fileSize }, head] = await Promise.all([handle.stat(), readAt(handle, 0, firstRead)]);
  if (head.length < prefixBytes || !head.subarray(0, magic.length).equals(magic)) throw corrupt(file, "no object header");
  const length = head.readUInt32BE(magic.length);
  const dataOffset = prefixBytes + length;
  const json = dataOffset <= head.length ? head.subarray(prefixBytes, dataOffset) : await readAt(handle, prefixBytes, length);
  let header: ObjectHeader;
  try {
    header = JSON.parse(json.toString("utf8")) as ObjectHeader;
  } catch (err) {
    throw corrupt(file, "unreadable header", err);
  }
  // A file cut short (a disk filled up, a copy interrupted) is reported, never served truncated.
  if (fileSize !== dataOffset + header.size) throw corrupt(file, `${fileSize - dataOffset} bytes of content, header says ${header.size}`);
  return { header, dataOffset };
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

function corrupt(file: string, why: string, cause?: unknown): ObjectsError {
  return new ObjectsError(`object file ${file} is damaged: ${why}`, { cause });
}
