import { api } from "encore.dev/api";
import type { IncomingMessage, ServerResponse } from "node:http";
import Negotiator from "negotiator";
import { clickCounter } from "./clicks";
import { isWellFormedCode } from "./codes";
import { originalUrlOf } from "./lookup";

/**
 * GET /:code resolves a short code and counts the click.
 *
 * A raw endpoint, because a browser following the short link should get a real
 * redirect (302 with Location), which a typed endpoint cannot answer; API clients
 * get the spec's JSON body `{"url": ...}`. HEAD answers the same without counting.
 */
export const resolve = api.raw(
  { expose: true, method: ["GET", "HEAD"], path: "/:code" },
  async (req: IncomingMessage, res: ServerResponse) => {
    const code = codeOf(req.url ?? "/");
    const url = isWellFormedCode(code) ? await originalUrlOf(code) : undefined;
    if (url === undefined) {
      sendJson(res, 404, notFoundBody, req.method === "HEAD");
      return;
    }
    if (req.method === "GET") await clickCounter.record(code);
    if (prefersHtml(req)) {
      // Not cacheable: a browser replaying a cached redirect would skip the click count.
      res.writeHead(302, { location: url, "cache-control": "private, no-store" });
      res.end();
      return;
    }
    sendJson(res, 200, JSON.stringify({ url }), req.method === "HEAD");
  },
);

const notFoundBody = JSON.stringify({ code: "not_found", message: "url not found", details: null });

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

function sendJson(res: ServerResponse, status: number, body: string, headOnly: boolean): void {
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(body),
  });
  res.end(headOnly ? undefined : body);
}
