import { InvalidArgument } from "./errors.ts";

/** Encore's limits on a signed URL's lifetime, in seconds. */
export const defaultTtlSeconds = 3600;
export const maxTtlSeconds = 7 * 24 * 3600;

/** Encore's rule: whole seconds, one hour when unset, at most seven days. */
export function checkTtl(ttl: unknown): number {
  if (ttl === undefined) return defaultTtlSeconds;
  if (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl < 1 || ttl > maxTtlSeconds) {
    throw new InvalidArgument(`ttl must be a whole number of seconds from 1 to ${maxTtlSeconds} (seven days), got ${String(ttl)}`);
  }
  return ttl;
}

/**
 * A content type is sent back as a Content-Type header, so it must be one: printable
 * ASCII, no line breaks (which would let a stored value add headers to a response).
 */
export function checkContentType(contentType: unknown): string | undefined {
  if (contentType === undefined) return undefined;
  if (typeof contentType !== "string" || !/^[\x20-\x7e]{1,255}$/.test(contentType) || !contentType.includes("/")) {
    throw new InvalidArgument(`contentType must be a media type such as "image/png" (printable ASCII, at most 255 characters), got ${JSON.stringify(contentType)}`);
  }
  return contentType;
}

export function checkLimit(limit: unknown): number | undefined {
  if (limit === undefined) return undefined;
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1) {
    throw new InvalidArgument(`limit must be a whole number of at least 1, got ${String(limit)}`);
  }
  return limit;
}

/** Upload data: a Buffer, or any Uint8Array viewed as one without copying. */
export function checkData(data: unknown): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (data instanceof Uint8Array) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  throw new InvalidArgument("upload data must be a Buffer");
}
