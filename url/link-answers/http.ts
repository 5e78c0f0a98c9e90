import type { IncomingMessage, ServerResponse } from "node:http";
import Negotiator from "negotiator";
import type { Unavailable } from "../answer-pages/unavailable";
import type { CachedLink } from "../link-cache/cache";
import { pageHeaders } from "../answer-pages/pages";
import { withQuery } from "./query-forwarding";
import { isPreviewBot } from "../../visitors/preview-bots";

// What GET /:code and POST /:code share of reading a request and writing an answer.

/**
 * "/abc123?utm=x" → "abc123". One trailing slash is dropped ("/abc123/" → "abc123"): the
 * router serves /:code at /:code/ too, as Encore's does, and a link pasted with a slash
 * after it is still the link.
 */
export function codeOf(pathAndQuery: string): string {
  const query = pathAndQuery.indexOf("?");
  const path = pathAndQuery.slice(1, query === -1 ? undefined : query);
  return path.endsWith("/") ? path.slice(0, -1) : path;
}

// JSON wins ties (curl's */*, API clients); a browser's Accept ranks text/html first.
const offered = ["application/json", "text/html"];

export function prefersHtml(req: IncomingMessage): boolean {
  const accept = rawHeader(req, "accept");
  if (accept === undefined || !accept.includes("html")) return false;
  return new Negotiator({ headers: { accept } }).mediaType(offered) === "text/html";
}

/**
 * One header's value (`name` in lower case), the first if sent twice. Reading req.headers
 * makes Node build the whole header object; the hot path needs one header.
 */
export function rawHeader(req: IncomingMessage, name: string): string | undefined {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name) return raw[i + 1];
  }
  return undefined;
}

export function sendJson(req: IncomingMessage, res: ServerResponse, status: number, body: string, bytes: number): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": bytes });
  res.end(req.method === "HEAD" ? undefined : body);
}

/** One of pages.ts's pages; `extra` adds headers (Retry-After). */
export function sendPage(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  html: string,
  bytes = Buffer.byteLength(html),
  extra?: Readonly<Record<string, string>>,
): void {
  res.writeHead(status, { ...pageHeaders, ...extra, "content-length": bytes });
  res.end(req.method === "HEAD" ? undefined : html);
}

/**
 * A link that redirects: a browser gets its redirect type (302 unless chosen) to its target,
 * anyone else `{"url": ...}`. Each answer's headers were built with the link
 * (link-cache/answer-headers.ts), X-Robots-Tag among them.
 */
export function sendLink(req: IncomingMessage, res: ServerResponse, link: CachedLink): void {
  // A link with a preview shows a link-preview bot its card (answer-pages/preview-card.ts), counted as a bot's click.
  if (link.preview !== undefined && isPreviewBot(rawHeader(req, "user-agent"))) {
    const card = link.preview.page(link.url);
    return sendPage(req, res, 200, card.html, card.bytes);
  }
  sendTarget(req, res, link, prefersHtml(req) ? link.how.redirectType : null);
}

/**
 * The password form's right answer: 303 See Other to the target, whatever the redirect
 * type, so the browser follows with a GET and never posts the form again.
 */
export function sendSeeOther(req: IncomingMessage, res: ServerResponse, link: CachedLink): void {
  sendTarget(req, res, link, 303);
}

/**
 * A redirect with `status` to the link's target, or (null) the JSON answer naming it; the
 * request's query string added when the link forwards it, looked at only when one was sent.
 */
function sendTarget(req: IncomingMessage, res: ServerResponse, link: CachedLink, status: number | null): void {
  const query = link.how.forwardQuery ? req.url!.indexOf("?") : -1;
  const url = query === -1 ? link.url : withQuery(link.url, req.url!.slice(query + 1));
  if (status !== null) {
    res.writeHead(status, url === link.url ? link.headers.redirect : { ...link.headers.redirect, location: url });
    res.end();
    return;
  }
  if (url === link.url) {
    res.writeHead(200, link.headers.json);
    res.end(req.method === "HEAD" ? undefined : link.body);
    return;
  }
  const body = JSON.stringify({ url });
  res.writeHead(200, { ...link.headers.json, "content-length": Buffer.byteLength(body) });
  res.end(req.method === "HEAD" ? undefined : body);
}

/** A link that no longer redirects: its prepared 404, as JSON or, for a browser, as a page. */
export function sendUnavailable(req: IncomingMessage, res: ServerResponse, answer: Unavailable): void {
  if (prefersHtml(req)) sendPage(req, res, 404, answer.page, answer.pageBytes);
  else sendJson(req, res, 404, answer.body, answer.bodyBytes);
}
