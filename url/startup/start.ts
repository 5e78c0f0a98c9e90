import { startClickCounting } from "../click-counting/instance";
import { closeNotificationsOnStop } from "../notifications/instance";
import { startOutboxRelay } from "../outbox/relay";

let started = false;

/**
 * Starts the url service's background work, once: url/encore.service.ts calls it,
 * since Encore.ts has no start-up hook and a service's own files run once when the
 * service starts. Importing any module of the service starts nothing (no timer,
 * signal handler or connection), so tests import them freely.
 *
 * - Click counting: registers this process as a writer of clicks, replays the
 *   journals of processes that died during an outage, and writes the counted clicks
 *   on a stop signal (click-counting/instance.ts).
 * - The outbox relay sweeps the url-shortened events a stopped process left behind
 *   (outbox/relay.ts).
 * - The listening connection (cache evictions, banned hosts) is closed on a stop
 *   signal; it opens at the first lookup or check of a new link, not here
 *   (notifications/instance.ts).
 */
export function startUrlService(): void {
  if (started) return;
  started = true;
  startClickCounting();
  startOutboxRelay();
  closeNotificationsOnStop();
}
