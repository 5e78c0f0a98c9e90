import { api } from "encore.dev/api";
import { url } from "~encore/clients";
import { existsSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { onOffSetting } from "../limits/limiter/env";
import { requestHost } from "../link-rules/request-host";
import { escapeHtml } from "./escape-html";

/** TRUST_PROXY, as the url service reads it: the host may come from X-Forwarded-Host. */
const trustProxy = onOffSetting(process.env, "TRUST_PROXY", false);

/**
 * GET / : the front end's page (frontend/dist/index.html, as static.ts serves it, with
 * its headers), except on a custom domain (links/domains.ts), where / belongs to the
 * domain's owner: a 302 to its root URL, or a short page saying what the domain is.
 *
 * An exact route, which Encore tries before the fallback route of static.ts ("/!path",
 * only when no other route matches), so every other path of the front end is still the
 * static route's. The url service says whether the host is a domain (url/domain-root.ts):
 * the set of domains lives in its memory.
 */
export const root = api.raw({ expose: true, method: ["GET", "HEAD"], path: "/" }, async (req: IncomingMessage, res: ServerResponse) => {
  const host = requestHost(req, trustProxy);
  const domain = host === undefined ? { domain: false } : await url.domainRoot({ host });
  if (domain.domain) {
    if (domain.rootUrl !== undefined) {
      res.writeHead(302, { location: domain.rootUrl, "cache-control": "no-store" });
      res.end();
      return;
    }
    return send(req, res, 200, domainPage(host!));
  }
  const index = path.join(appRoot(), "frontend", "dist", "index.html");
  if (existsSync(index)) return send(req, res, 200, readFileSync(index, "utf8"));
  send(req, res, 404, readFileSync(path.join(appRoot(), "web", "not-found.html"), "utf8"));
});

/** static.ts's headers (test/web.http.test.ts checks both). */
const pageHeaders = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-cache",
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self' 'sha256-jwBqhAE1zQ0NakeEWw1K4HPC7jETyCNy6SuRiZfxEC8='; img-src 'self' https: data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
};

function send(req: IncomingMessage, res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { ...pageHeaders, "content-length": Buffer.byteLength(html) });
  res.end(req.method === "HEAD" ? undefined : html);
}

/** A custom domain's own page, when its owner set no root URL. */
function domainPage(host: string): string {
  const name = escapeHtml(host);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title><link rel="icon" href="data:,"></head><body><h1>${name}</h1><p>This domain serves short links. A short link's address is https://${name}/ followed by its code.</p></body></html>`;
}

let root_: string | undefined;

/**
 * The folder holding encore.app, from this file upward: the same under the TypeScript
 * loader (web/), in the server bundle (encore.gen/build/...) and in a deploy folder, which
 * copies encore.app and the static folders beside it.
 */
function appRoot(): string {
  if (root_ !== undefined) return root_;
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "encore.app"))) return (root_ = dir);
    if (path.dirname(dir) === dir) return (root_ = process.cwd());
  }
}
