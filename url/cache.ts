import { LRUCache } from "lru-cache";
import { urlConfig } from "./config";

/** What a lookup answers with, built once per code rather than once per request. */
export interface CachedLink {
  readonly url: string;
  /** `{"url": ...}`, the JSON answer. */
  readonly body: string;
  readonly bodyBytes: number;
}

export function cachedLink(url: string): CachedLink {
  const body = JSON.stringify({ url });
  return { url, body, bodyBytes: Buffer.byteLength(body) };
}

/**
 * code → link, bounded. A code's URL never changes once stored, so entries never
 * go stale; only deletion (the cleanup job) must evict them.
 */
export const urlCache = new LRUCache<string, CachedLink>({ max: urlConfig.cacheSize });
