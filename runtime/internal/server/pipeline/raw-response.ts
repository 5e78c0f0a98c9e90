import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from "node:http";
import type { RouteMeter } from "../../metrics/route-meter.ts";
import { requestIdHeader, sameIgnoringCase } from "../../reqtrack/request-id.ts";

type HeaderValue = number | string | readonly string[];
type Headers = OutgoingHttpHeaders | OutgoingHttpHeader[];

/**
 * The response every request of the server gets: Node's ServerResponse, as lenient
 * as the response Encore hands raw handlers (encore.dev's RawResponse, which keeps
 * headers in a plain map and writes them once). Apps written for Encore rely on it:
 * - a second `writeHead`, or `setHeader`/`appendHeader`/`removeHeader` once the
 *   headers are out, is ignored (Node throws ERR_HTTP_HEADERS_SENT);
 * - `setHeader(name, undefined)` leaves the header unset, and `writeHead`'s headers
 *   with undefined values are skipped (Node throws ERR_HTTP_INVALID_HEADER_VALUE).
 * Everything else is Node's own. It is the server's response class, set once when
 * the server is created, so no request pays for a wrapper: the raw fast lane's
 * `writeHead` costs one `headersSent` check and a scan of the headers it is given.
 */
export class RawResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  // Fields of every response, so all have one shape; read only while metrics are on (observe.ts).
  /** The series of the route that took the request; null: no route matched. */
  route: RouteMeter | null = null;
  /** performance.now() when the request arrived. */
  startedAt = 0;
  /** Encore's code of the error the runtime answered with; null when it answered none. */
  errorCode: string | null = null;
  /** The x-request-id it answers with, added as its headers are written (observe.ts). */
  requestId = "";

  override writeHead(statusCode: number, headers?: Headers): this;
  override writeHead(statusCode: number, statusMessage?: string, headers?: Headers): this;
  override writeHead(statusCode: number, messageOrHeaders?: string | Headers, headers?: Headers): this {
    if (this.headersSent) return this;
    if (typeof messageOrHeaders === "string") return super.writeHead(statusCode, messageOrHeaders, this.#finalHeaders(headers));
    return super.writeHead(statusCode, this.#finalHeaders(messageOrHeaders));
  }

  /**
   * The headers as written: undefined values left out, x-request-id added unless the
   * handler set its own. Added to the object given rather than with setHeader beforehand:
   * once any header is set that way, Node's writeHead sets each header of the object one by
   * one, which costs the raw fast lane's response about 1.5 µs more.
   */
  #finalHeaders(headers: Headers | undefined): Headers | undefined {
    const id = this.requestId;
    if (id === "" || super.hasHeader(requestIdHeader)) return withoutUndefined(headers);
    if (headers === undefined || Array.isArray(headers)) {
      super.setHeader(requestIdHeader, id);
      return headers;
    }
    return withRequestId(headers as OutgoingHttpHeaders, id);
  }

  override setHeader(name: string, value: HeaderValue | undefined): this {
    if (this.headersSent) return this;
    if (value === undefined) {
      super.removeHeader(name);
      return this;
    }
    return super.setHeader(name, value);
  }

  override appendHeader(name: string, value: string | readonly string[]): this {
    if (this.headersSent || value === undefined) return this;
    return super.appendHeader(name, value);
  }

  override removeHeader(name: string): void {
    if (!this.headersSent) super.removeHeader(name);
  }
}

/** A copy of `headers`, undefined values left out, with x-request-id unless they have one (in any case). */
function withRequestId(headers: OutgoingHttpHeaders, id: string): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  let given = false;
  for (const key in headers) {
    const value = headers[key];
    if (value === undefined) continue;
    if (key.length === requestIdHeader.length && sameIgnoringCase(key, requestIdHeader)) given = true;
    out[key] = value;
  }
  if (!given) out[requestIdHeader] = id;
  return out;
}

/** The headers as given when none is undefined (the usual case: no copy), else a copy without them. */
function withoutUndefined(headers: Headers | undefined): Headers | undefined {
  if (headers === undefined || Array.isArray(headers)) return headers;
  const record = headers as OutgoingHttpHeaders;
  let clean = true;
  for (const key in record) {
    if (record[key] === undefined) {
      clean = false;
      break;
    }
  }
  if (clean) return headers;
  const kept: OutgoingHttpHeaders = {};
  for (const key in record) if (record[key] !== undefined) kept[key] = record[key];
  return kept;
}

/** Notes the Encore code of an error the runtime answers, for the requests counter. */
export function noteErrorCode(res: ServerResponse, code: string): void {
  if (res instanceof RawResponse) res.errorCode = code;
}
