import type { OutgoingHttpHeaders } from "node:http";

/** How a link redirects, from its row (url migration 17); the same for its fallback. */
export interface RedirectHow {
  /** The status of a browser's redirect: 301, 302, 307 or 308. */
  readonly redirectType: number;
  /** Whether the request's query string is added to the target (link-answers/query-forwarding.ts). */
  readonly forwardQuery: boolean;
  /** Whether every answer carries X-Robots-Tag: noindex (the link does not allow indexing). */
  readonly noindex: boolean;
}

/** A link made before links had these options, or left at their defaults. */
export const defaultRedirect: RedirectHow = Object.freeze({ redirectType: 302, forwardQuery: true, noindex: true });

/** The headers of a link's answers, built once with its cache entry: a request allocates none. */
export interface AnswerHeaders {
  /** A browser's redirect: Location, and never cached (a browser replaying it would skip the click count). */
  readonly redirect: OutgoingHttpHeaders;
  /** An API client's `{"url"}`: its type and length. */
  readonly json: OutgoingHttpHeaders;
}

export function answerHeaders(url: string, bodyBytes: number, how: RedirectHow): AnswerHeaders {
  const robots: OutgoingHttpHeaders = how.noindex ? { "x-robots-tag": "noindex" } : {};
  return {
    redirect: { location: url, "cache-control": "private, no-store", ...robots },
    json: { "content-type": "application/json; charset=utf-8", "content-length": bodyBytes, ...robots },
  };
}
