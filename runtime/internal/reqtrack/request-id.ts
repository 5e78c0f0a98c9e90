import { randomBytes } from "node:crypto";
import { IncomingMessage } from "node:http";

/** The response header every answer carries, and the request header a caller may set it with. */
export const requestIdHeader = "x-request-id";

/** Longest incoming id kept; a longer one is replaced. */
const maxIncomingLength = 128;
// What proxies and tracing systems put there (UUIDs, base64, "Root=1-..."), and nothing that
// could split a log line or a header.
const wellFormed = /^[A-Za-z0-9._~:@+=/-]+$/;

/**
 * The server's request: Node's, with the id its response carries. A class of its own, set
 * when the server is created, so every request has the same shape and no lookup finds the id.
 */
export class IdentifiedRequest extends IncomingMessage {
  requestId = "";
}

// Unique across instances (the prefix, random per process) and within one (the sequence):
// no randomness per request, which the hot path would pay for.
const prefix = `${randomBytes(6).toString("base64url")}-`;
let sequence = 0;

export function newRequestId(): string {
  return prefix + (++sequence).toString(36);
}

/**
 * The caller's X-Request-ID when it is well formed (at most 128 characters of letters,
 * digits and . _ ~ : @ + = / -), else a new id. Read from the raw header list: reading
 * req.headers makes Node build the whole header object, which the hot path never needs.
 */
export function requestIdOf(req: IncomingMessage): string {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length !== requestIdHeader.length || !sameIgnoringCase(name, requestIdHeader)) continue;
    const value = raw[i + 1]!;
    return value.length > 0 && value.length <= maxIncomingLength && wellFormed.test(value) ? value : newRequestId();
  }
  return newRequestId();
}

/** Whether `text` is `lower` (lowercase ASCII) in any case; no string is made to compare. */
export function sameIgnoringCase(text: string, lower: string): boolean {
  for (let i = 0; i < lower.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== lower.charCodeAt(i)) return false;
  }
  return true;
}
