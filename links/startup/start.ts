import { closeBanNotificationsOnStop } from "../moderation/ban-notifications";
import { startOutboxRelay } from "../outbox/relay";

let started = false;

/**
 * Starts the links service's background work, once: links/encore.service.ts calls it, since
 * Encore.ts has no start-up hook and a service's own files run once when the service
 * starts. Importing any module of the service starts nothing, so tests import them freely.
 *
 * - The outbox relay sweeps the url-shortened events a stopped process left behind
 *   (outbox/relay.ts).
 * - The listening connection (host bans) is closed on a stop signal; it opens at the first
 *   check of a new link's host, not here (moderation/ban-notifications.ts).
 */
export function startLinksService(): void {
  if (started) return;
  started = true;
  startOutboxRelay();
  closeBanNotificationsOnStop();
}
