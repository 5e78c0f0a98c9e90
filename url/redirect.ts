import { api } from "encore.dev/api";
import type { IncomingMessage, ServerResponse } from "node:http";
import Negotiator from "negotiator";
import { urlCache, type CachedLink } from "./link-cache/cache";
import { clickCounter } from "./click-counting/instance";
import { isWellFormedCode } from "./shortening/codes";
import { linkOf } from "./link-cache/lookup";

/**
 * GET /:code resolves a short code and counts the click.
 *
 * A raw endpoint, because a browser following the short link should get a real
 * redirect (302 with Location), which a typed endpoint cannot answer; API clients
 * get the JSON body `{"url": ...}`. HEAD answers the same without counting.
 *
 * Publishes nothing: the click goes to this instance's click counter, which writes
 * it to the urls row in a later batch (click-counting/), or before answering when
 * the flush interval is 0.
 *
 * This is the hot path: a cached code is answered synchronously, with a prepared
 * body, no promise and no database work; only a cache miss, or writing each click
 * (flush interval 0), waits.
 */
export const resolve = api.raw(
  { expose: true, method: ["GET", "HEAD"], path: "/:code" },
  (req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    const code = codeOf(req.url ?? "/");
    if (!isWellFormedCode(code)) return sendJson(req, res, 404, notFoundBody, notFoundBody.length);
    const cached = urlCache.get(code);
    if (cached !== undefined) return answer(req, res, code, cached);
    return linkOf(code).then((link) =>
      link === undefined ? sendJson(req, res, 404, notFoundBody, notFoundBody.length) : answer(req, res, code, link),
    );
  },
);

function answer(req: IncomingMessage, res: ServerResponse, code: string, link: CachedLink): void | Promise<void> {
  const written = req.method === "GET" ? clickCounter.record(code) : undefined;
  if (written) return written.then(() => respond(req, res, link));
  respond(req, res, link);
}

function respond(req: IncomingMessage, res: ServerResponse, link: CachedLink): void {
  if (prefersHtml(req)) {
    // Not cacheable: a browser replaying a cached redirect would skip the click count.
    res.writeHead(302, { location: link.url, "cache-control": "private, no-store" });
    res.end();
    return;
  }
  sendJson(req, res, 200, link.body, link.bodyBytes);
}

const notFoundBody = JSON.stringify({ code: "not_found", message: "url not found", details: null });

/** "/abc123?utm=x" → "abc123" */
function codeOf(pathAndQuery: string): string {
  const end = pathAndQuery.indexOf("?");
  return pathAndQuery.slice(1, end === -1 ? undefined : end);
}

// JSON wins ties (curl's */*, API clients); a browser's Accept ranks text/html first.
const offered = ["application/json", "text/html"];

function prefersHtml(req: IncomingMessage): boolean {
  const accept = acceptHeader(req);
  if (accept === undefined || !accept.includes("html")) return false;
  return new Negotiator({ headers: { accept } }).mediaType(offered) === "text/html";
}

// Reading req.headers makes Node build the whole header object; the hot path needs one header.
function acceptHeader(req: IncomingMessage): string | undefined {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === 6 && raw[i]!.toLowerCase() === "accept") return raw[i + 1];
  }
  return undefined;
}

function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: string, bytes: number): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": bytes });
  res.end(req.method === "HEAD" ? undefined : body);
}
