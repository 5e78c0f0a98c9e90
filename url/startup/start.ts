import log from "encore.dev/log";
import { startClickCounting } from "../click-counting/instance";
import { foldLeftRows } from "../click-analytics/workspace-fold";
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
 * - The workspaces' recent click rows a process left unfolded (stopped between its flush
 *   and its fold) arm this instance's fold (click-analytics/workspace-fold.ts); with none,
 *   nothing is armed, and only a flush that adds to them arms it.
 */
export function startUrlService(): void {
  if (started) return;
  started = true;
  startClickCounting();
  closeNotificationsOnStop();
  void foldLeftRows().catch((err: unknown) => log.warn(err, "looking for workspaces' clicks left unfolded failed; the next flush of one arms their fold"));
}
