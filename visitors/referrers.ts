import { LRUCache } from "lru-cache";
import { cleanValue, unknown } from "./dimensions";

/** A click with no Referer: typed, bookmarked, from an app or a mail client that sends none. */
export const direct = "direct";

/**
 * The site a click came from: the Referer's host, lower case, without a leading
 * "www." (the same site either way); "direct" when there is none, "unknown" when it is
 * not an http(s) URL. Only the host is kept: a path can carry a person's data.
 */
export function referrerOf(referer: string | undefined): string {
  if (!referer) return direct;
  let host = cache.get(referer);
  if (host === undefined) {
    host = hostOf(referer);
    if (referer.length <= longestCached) cache.set(referer, host);
  }
  return host;
}

/**
 * Parsing a URL costs about 0.4 µs; links are shared from a few pages, so their
 * referrers repeat. Longer ones are parsed each time rather than kept: a client could
 * fill the cache with them.
 */
const cache = new LRUCache<string, string>({ max: 2000 });
const longestCached = 512;

function hostOf(referer: string): string {
  let url: URL;
  try {
    url = new URL(referer);
  } catch {
    return unknown;
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.hostname === "") return unknown;
  const host = url.hostname.toLowerCase();
  return cleanValue(host.startsWith("www.") ? host.slice(4) : host);
}
