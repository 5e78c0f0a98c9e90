import { api } from "encore.dev/api";
import type { IncomingMessage, ServerResponse } from "node:http";
import { urlCache, type CachedLink } from "./link-cache/cache";
import { clickCounter } from "./click-counting/instance";
import { describeClick } from "../visitors/describe";
import { urlConfig } from "./config/url-config";
import { isWellFormedCode } from "../link-rules/codes";
import { linkOf } from "./link-cache/lookup";
import { answerGuarded } from "./link-answers/guarded";
import { codeOf, sendLink, sendUnavailable } from "./link-answers/http";
import { notFound } from "./answer-pages/unavailable";
import { customDomains } from "./domains/custom-domains";
import { answerOnHost, sendUnknownOnHost } from "./link-answers/on-host";

/**
 * GET /:code resolves a short code and counts the click.
 *
 * A raw endpoint, because a browser following the short link should get a real
 * redirect (302 with Location), which a typed endpoint cannot answer; API clients
 * get the JSON body `{"url": ...}`. HEAD answers the same without counting.
 *
 * A code with no link (or a path that is no code) is 404: Encore's JSON error, or for a
 * browser the same page as a link that stopped redirecting (answer-pages/).
 *
 * A link with an end date, a click budget or a password, or one deleted or disabled,
 * is answered by link-answers/guarded.ts: 404 with its reason (a page for a browser)
 * once it no longer redirects, 401 until its password is given, and a budgeted click
 * counted in the database before the answer.
 *
 * Publishes nothing: the click goes to this instance's click counter, which writes
 * it to the urls row in a later batch (click-counting/), or before answering when
 * the flush interval is 0.
 *
 * This is the hot path: a cached plain link is answered synchronously, with a prepared
 * body, no promise and no database work, and costs one more property read than a link
 * did before links had options; only a cache miss, or writing each click (flush
 * interval 0), waits.
 */
export const resolve = api.raw(
  { expose: true, method: ["GET", "HEAD"], path: "/:code" },
  (req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    const code = codeOf(req.url ?? "/");
    if (!isWellFormedCode(code)) return customDomains.none ? sendUnavailable(req, res, notFound) : sendUnknownOnHost(req, res);
    const cached = urlCache.get(code);
    // With no custom domains every link answers on every host; else the host decides (domains/on-host.ts).
    if (!customDomains.none || (cached !== undefined && cached.domain !== null)) return answerOnHost(req, res, code, cached, answer);
    if (cached !== undefined) return answer(req, res, code, cached);
    return linkOf(code).then((link) =>
      link === undefined
        ? sendUnavailable(req, res, notFound)
        : link.domain !== null
          ? answerOnHost(req, res, code, link, answer)
          : answer(req, res, code, link),
    );
  },
);

function answer(req: IncomingMessage, res: ServerResponse, code: string, link: CachedLink): void | Promise<void> {
  if (link.rules !== undefined) return answerGuarded(req, res, code, link, link.rules);
  const written = req.method === "GET" ? clickCounter.record(code, describeClick(req, urlConfig.trustProxy)) : undefined;
  if (written) return written.then(() => sendLink(req, res, link));
  sendLink(req, res, link);
}
