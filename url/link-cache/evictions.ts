import type { LinkCache } from "./cache";
import type { Subscriber } from "../../pg-notify/listener";

/** The channel migration 6's trigger sends codes on; an empty payload means every code. */
export const evictionChannel = "url_cache_evict";

/**
 * The cache's side of the codes whose rows were deleted or changed (by any instance,
 * the cleanup job, or SQL typed by hand), heard on the url service's listening
 * connection (notifications/instance.ts): each code leaves this instance's cache.
 *
 * While the connection is lost, evictions are missed: the cache keeps serving what it
 * holds (a database outage must not take cached links down) but keeps nothing new, and
 * when the connection is back the whole cache is cleared. A stop signal empties it:
 * without evictions it could go stale, and a stopping instance's lookups write their
 * clicks one by one anyway.
 */
export function cacheEvictions(cache: LinkCache): Subscriber {
  return {
    notified: (code) => (code ? cache.evict(code) : cache.clear()),
    up: () => cache.guard(),
    down: () => cache.unguard(),
    closed: () => {
      cache.unguard();
      cache.clear();
    },
  };
}
