import { startClickCounting } from "../click-counting/instance";
import { closeNotificationsOnStop } from "../link-cache/notifications";

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
 * - The listening connection (cache evictions) is closed on a stop signal; it opens at
 *   the first lookup, not here (notifications/instance.ts).
 */
export function startUrlService(): void {
  if (started) return;
  started = true;
  startClickCounting();
  closeNotificationsOnStop();
}
