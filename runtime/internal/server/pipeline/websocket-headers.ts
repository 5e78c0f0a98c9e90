// Request headers carried in the WebSocket subprotocol list. Browsers cannot set headers on a
// WebSocket handshake, so Encore's generated clients send a stream's headers (the handshake's
// Header fields and the auth handler's, `authorization` included) as one extra subprotocol,
// `encore.dev.headers.<base64url of a JSON object of names to values>`, and Encore's gateway
// turns it back into request headers before the request goes further. This does the same.
import type { IncomingMessage } from "node:http";
import { APIError } from "../../errors/api-error.ts";

const PREFIX = "encore.dev.headers.";
const PROTOCOL_HEADER = "sec-websocket-protocol";

/** Headers a browser would never let a script set, which the subprotocol may not set either (Encore's list). */
const FORBIDDEN = new Set([
  "accept-charset", "accept-encoding", "access-control-request-headers", "access-control-request-method",
  "connection", "content-length", "cookie", "date", "dnt", "expect", "host", "keep-alive", "origin",
  "permissions-policy", "referer", "te", "trailer", "transfer-encoding", "upgrade", "via",
]);

// Headers of which Node keeps only the first when a request repeats them (node:http's rule).
const FIRST_ONLY = new Set([
  "age", "authorization", "content-length", "content-type", "etag", "expires", "from", "host",
  "if-modified-since", "if-unmodified-since", "last-modified", "location", "max-forwards",
  "proxy-authorization", "referer", "retry-after", "server", "user-agent",
]);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;
/** A header value: no control characters but tab (what the HTTP library Encore uses accepts). */
function isHeaderValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if ((c < 32 && c !== 9) || c === 127) return false;
  }
  return true;
}

/** Whether `name` (lower-case) is a header the subprotocol may not set. */
export function isForbiddenHeader(name: string): boolean {
  return FORBIDDEN.has(name) || name.startsWith("sec-") || name.startsWith("proxy-");
}

/**
 * Decodes one subprotocol entry's payload (after the prefix) into header names (lower-case)
 * and values. Throws `invalid_argument` when it is not unpadded base64url of a JSON object
 * of strings, or names a header that may not be set.
 */
export function decodeHeaderEntry(payload: string): [string, string][] {
  const invalid = (why: string) =>
    APIError.invalidArgument(`invalid headers in the WebSocket subprotocol (${PREFIX}…): ${why}`);
  if (!BASE64URL.test(payload) || payload.length % 4 === 1) throw invalid("not unpadded base64url");
  let object: unknown;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(payload, "base64url"));
    object = JSON.parse(text);
  } catch {
    throw invalid("not a JSON object in UTF-8");
  }
  if (typeof object !== "object" || object === null || Array.isArray(object)) throw invalid("not a JSON object");
  const headers: [string, string][] = [];
  for (const [key, value] of Object.entries(object)) {
    if (!TOKEN.test(key)) throw invalid(`${JSON.stringify(key)} is not a header name`);
    if (typeof value !== "string" || !isHeaderValue(value)) throw invalid(`header ${JSON.stringify(key)} needs a string value without control characters`);
    const name = key.toLowerCase();
    if (isForbiddenHeader(name)) throw APIError.invalidArgument(`header "${name}" may not be set through the WebSocket subprotocol`);
    headers.push([name, value]);
  }
  return headers;
}

/**
 * Moves the `encore.dev.headers.*` entries of a WebSocket handshake's subprotocol list into
 * its headers, as Encore's gateway does: each decoded header is added as if the request had
 * carried it (after any it carries, so a header it sent itself comes first; X-Forwarded-For
 * is dropped), and the entries
 * leave the subprotocol list, so one is never agreed to. A request without such entries is
 * left untouched. Throws `invalid_argument`, changing nothing, when an entry is malformed or
 * names a forbidden header.
 */
export function applySubprotocolHeaders(req: IncomingMessage): void {
  const raw = req.rawHeaders;
  let found = false;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === PROTOCOL_HEADER && raw[i + 1]!.includes(PREFIX)) found = true;
  }
  if (!found) return;

  // Everything is decoded before anything changes.
  const kept: string[] = [];
  const added: [string, string][] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== PROTOCOL_HEADER) continue;
    for (const item of raw[i + 1]!.split(",")) {
      const protocol = item.trim();
      if (protocol.startsWith(PREFIX)) added.push(...decodeHeaderEntry(protocol.slice(PREFIX.length)));
      else if (protocol !== "") kept.push(protocol);
    }
  }

  const headers = req.headers; // Node builds it from rawHeaders on first read: read it before rawHeaders changes
  const rebuilt: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== PROTOCOL_HEADER) rebuilt.push(raw[i]!, raw[i + 1]!);
  }
  if (kept.length > 0) {
    rebuilt.push("Sec-WebSocket-Protocol", kept.join(", "));
    headers[PROTOCOL_HEADER] = kept.join(", ");
  } else {
    delete headers[PROTOCOL_HEADER];
  }
  for (const [name, value] of added) {
    // The client's address is the server's to say: Encore's gateway appends the peer's after the
    // decoded headers, so a value sent this way never counts. Dropped here, where the last entry
    // counts behind a trusted proxy.
    if (name === "x-forwarded-for") continue;
    rebuilt.push(name, value);
    const existing = headers[name];
    if (existing === undefined) headers[name] = name === "set-cookie" ? [value] : value;
    else if (Array.isArray(existing)) existing.push(value);
    else if (FIRST_ONLY.has(name)) continue;
    else headers[name] = `${existing}, ${value}`;
  }
  raw.splice(0, raw.length, ...rebuilt);
}
