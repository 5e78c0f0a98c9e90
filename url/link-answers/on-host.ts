import type { IncomingMessage, ServerResponse } from "node:http";
import type { CachedLink } from "../link-cache/cache";
import { linkOf } from "../link-cache/lookup";
import { urlNotifications } from "../link-cache/notifications";
import { urlConfig } from "../config/url-config";
import { appMeta } from "encore.dev";
import { prefersHtml, sendPage, sendUnavailable } from "./http";
import { requestHost } from "../../link-rules/request-host";
import { notFound, unavailablePage } from "../answer-pages/unavailable";
import { customDomains } from "../domains/custom-domains";
import type { CustomDomain } from "../domains/domain-set";

/** The verified custom domain a request was sent to; null: the default host (any other name). */
export function requestDomain(req: IncomingMessage, domains: ReadonlyMap<string, CustomDomain>): CustomDomain | null {
  if (domains.size === 0) return null;
  const host = requestHost(req, urlConfig.trustProxy);
  return host === undefined ? null : (domains.get(host) ?? null);
}

/** The set of domains, read first (after the listening connection's first attempt, so no change is missed) when it never was. */
export function domainsNow(): ReadonlyMap<string, CustomDomain> | Promise<ReadonlyMap<string, CustomDomain>> {
  return customDomains.current ?? urlNotifications.start().then(() => customDomains.loaded());
}

type Answer = (req: IncomingMessage, res: ServerResponse, code: string, link: CachedLink) => void | Promise<void>;

/**
 * GET /:code when the instance has custom domains or the link has one: a code answers
 * only on its link's host (a link with a domain on that domain, a link without one on any
 * other host); anywhere else it is unknown, as if no link had it. Codes are unique over
 * the whole table, so the cache, keyed by code, holds one link per code whatever the host.
 */
export function answerOnHost(req: IncomingMessage, res: ServerResponse, code: string, cached: CachedLink | undefined, answer: Answer): void | Promise<void> {
  const domains = domainsNow();
  if (domains instanceof Promise) return domains.then(() => answerOnHost(req, res, code, cached, answer));
  const domain = requestDomain(req, domains);
  const host = domain === null ? null : domain.host;
  if (cached !== undefined) return cached.domain === host ? answer(req, res, code, cached) : sendUnknownCode(req, res, domain);
  return linkOf(code).then((link) => (link !== undefined && link.domain === host ? answer(req, res, code, link) : sendUnknownCode(req, res, domain)));
}

/** A path that is no code, on whichever host it was sent to: a custom domain answers it as its unknown codes. */
export function sendUnknownOnHost(req: IncomingMessage, res: ServerResponse): void | Promise<void> {
  const domains = domainsNow();
  if (domains instanceof Promise) return domains.then(() => sendUnknownOnHost(req, res));
  sendUnknownCode(req, res, requestDomain(req, domains));
}

/** Whether `link` answers on the host `req` was sent to (POST /:code's check). */
export async function isOnItsHost(req: IncomingMessage, link: CachedLink): Promise<boolean> {
  const domain = requestDomain(req, await domainsNow());
  return link.domain === (domain === null ? null : domain.host);
}

/** A code no link answers on this host: the domain's not-found URL (302) when it has one, else the 404. */
export function sendUnknownCode(req: IncomingMessage, res: ServerResponse, domain: CustomDomain | null): void {
  if (domain !== null && domain.notFoundUrl !== null) {
    res.writeHead(302, { location: domain.notFoundUrl, "cache-control": "private, no-store" });
    res.end();
    return;
  }
  if (domain === null || !prefersHtml(req)) return sendUnavailable(req, res, notFound);
  // The domain's own page links to the domain's root, not to the instance: rare enough to build each time.
  const home = { url: `${new URL(appMeta().apiBaseUrl).protocol}//${domain.host}/`, label: `Go to ${domain.host}` };
  sendPage(req, res, 404, unavailablePage(notFound, home));
}
