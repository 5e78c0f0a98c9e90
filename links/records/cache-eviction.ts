import log from "encore.dev/log";
import { url } from "~encore/clients";

/**
 * Asks the url service to drop `code` from its cache now. A failed call is logged, not
 * answered: the change is committed, and the trigger's notification evicts it a moment later.
 */
export async function evictNow(code: string): Promise<void> {
  try {
    await url.evictCachedLink({ code });
  } catch (err) {
    log.warn(err, "evicting a changed link from the url service's cache failed; its notification follows", { code });
  }
}
