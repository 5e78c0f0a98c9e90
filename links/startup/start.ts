import { banNotifications, closeBanNotificationsOnStop } from "../moderation/ban-notifications";
import { startOutboxRelay } from "../outbox/relay";

let started = false;

/**
 * Starts the links service's background work, once: links/encore.service.ts calls it, since
 * Encore.ts has no start-up hook and a service's own files run once when the service
 * starts. Importing any module of the service starts nothing, so tests import them freely.
 *
 * - The outbox relay sweeps the url-shortened events a stopped process left behind
 *   (outbox/relay.ts).
 * - The listening connection (host bans, link events) opens here, so committed link events
 *   are published (event-outbox/relay.ts); it is closed on a stop signal
 *   (moderation/ban-notifications.ts).
 */
export function startLinksService(): void {
  if (started) return;
  started = true;
  startOutboxRelay();
  // Listening at once: link events committed while nobody listened are published when it is up.
  void banNotifications.start();
  closeBanNotificationsOnStop();
}
