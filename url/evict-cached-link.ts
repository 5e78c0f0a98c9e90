import { api } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { urlCache } from "./link-cache/cache";

export interface EvictCachedLinkRequest {
  /** The code whose row was just changed or deleted. */
  code: string & MaxLen<64>;
}

/**
 * Drops a code from this instance's link cache at once. The links service calls it right
 * after committing a change or a delete, so the next GET /:code here answers the change:
 * the eviction trigger's notification (url migration 6) reaches every instance's cache
 * too, but a moment after the commit, possibly after the owner's next request. Private.
 */
export const evictCachedLink = api(
  { expose: false, method: "POST", path: "/internal/link-cache/evict" },
  async ({ code }: EvictCachedLinkRequest): Promise<void> => {
    urlCache.evict(code);
  },
);
