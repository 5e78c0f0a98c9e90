import { currentRequest } from "encore.dev";
import { APIError } from "encore.dev/api";
import type { IncomingMessage, ServerResponse } from "node:http";

// What the raw endpoints (a file in, a file out) share: their path parameters and query,
// and answers in Encore's shapes.

/** A path parameter of the raw endpoint being served. */
export function pathParam(name: string): string {
  const req = currentRequest();
  const value = req?.type === "api-call" ? (req.pathParams as Record<string, unknown>)[name] : undefined;
  if (typeof value !== "string") throw APIError.internal(`no path parameter ${name}`);
  return value;
}

/** The request's query parameters. */
export function queryOf(req: IncomingMessage): URLSearchParams {
  return new URL(req.url ?? "/", "http://query.invalid").searchParams;
}

/** One of `allowed` from the query, or `fallback` when absent; 400 for anything else. */
export function choiceOf<T extends string>(query: URLSearchParams, name: string, allowed: readonly T[], fallback?: T): T {
  const value = query.get(name);
  if (value === null || value === "") {
    if (fallback !== undefined) return fallback;
    throw APIError.invalidArgument(`${name} is required: one of ${allowed.join(", ")}`);
  }
  if (!(allowed as readonly string[]).includes(value)) throw APIError.invalidArgument(`${name} must be one of ${allowed.join(", ")}, got "${value.slice(0, 40)}"`);
  return value as T;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** Headers of a file the browser saves under `fileName`. */
export function downloadHeaders(contentType: string, fileName: string): Record<string, string> {
  return {
    "content-type": contentType,
    "content-disposition": `attachment; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
    "cache-control": "no-store",
  };
}

/**
 * Reads and drops what is left of a refused upload's body, up to `limit` more bytes, so that
 * a client still sending gets the answer rather than a broken pipe: most clients send the
 * whole body before they read the answer. True when the body ended within the limit (the
 * connection can serve another request); false past it, and the caller closes the connection.
 */
export async function discardRest(req: IncomingMessage, limit: number): Promise<boolean> {
  if (req.complete) return true;
  let read = 0;
  for await (const chunk of req.iterator({ destroyOnReturn: false })) {
    read += (chunk as Buffer).length;
    if (read > limit) return false;
  }
  return req.complete;
}
