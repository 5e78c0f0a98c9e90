import { api } from "encore.dev/api";
import type { IncomingMessage, ServerResponse } from "node:http";
import Negotiator from "negotiator";
import { urlCache } from "./cache";
import { clickCounter } from "./clicks";
import { isWellFormedCode } from "./codes";
import { originalUrlOf } from "./lookup";

/**
 * GET /:code resolves a short code and counts the click.
 *
 * A raw endpoint, because a browser following the short link should get a real
 * redirect (302 with Location), which a typed endpoint cannot answer; API clients
 * get the spec's JSON body `{"url": ...}`. HEAD answers the same without counting.
 *
 * This is the hot path: a cached code is answered synchronously, with no promise
 * and no database work; only a cache miss, or writing each click (flush interval 0), waits.
 */
export const resolve = api.raw(
  { expose: true, method: ["GET", "HEAD"], path: "/:code" },
  (req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    const code = codeOf(req.url ?? "/");
    if (!isWellFormedCode(code)) return notFound(req, res);
    const cached = urlCache.get(code);
    if (cached !== undefined) return answer(req, res, code, cached);
    return originalUrlOf(code).then((url) => (url === undefined ? notFound(req, res) : answer(req, res, code, url)));
  },
);

function answer(req: IncomingMessage, res: ServerResponse, code: string, url: string): void | Promise<void> {
  const written = req.method === "GET" ? clickCounter.record(code) : undefined;
  if (written) return written.then(() => respond(req, res, url));
  respond(req, res, url);
}

function respond(req: IncomingMessage, res: ServerResponse, url: string): void {
  if (prefersHtml(req)) {
    // Not cacheable: a browser replaying a cached redirect would skip the click count.
    res.writeHead(302, { location: url, "cache-control": "private, no-store" });
    res.end();
    return;
  }
  sendJson(req, res, 200, JSON.stringify({ url }));
}

const notFoundBody = JSON.stringify({ code: "not_found", message: "url not found", details: null });

function notFound(req: IncomingMessage, res: ServerResponse): void {
  sendJson(req, res, 404, notFoundBody);
}

/** "/abc123?utm=x" → "abc123" */
function codeOf(pathAndQuery: string): string {
  const end = pathAndQuery.indexOf("?");
  return pathAndQuery.slice(1, end === -1 ? undefined : end);
}

// JSON wins ties (curl's */*, API clients); a browser's Accept ranks text/html first.
const offered = ["application/json", "text/html"];

function prefersHtml(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  if (accept === undefined || !accept.includes("html")) return false;
  return new Negotiator(req).mediaType(offered) === "text/html";
}

function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  });
  res.end(req.method === "HEAD" ? undefined : body);
}
