import { db } from "../db";
import { urlCache } from "../link-cache/cache";
import { cacheEvictions, evictionChannel } from "../link-cache/evictions";
import { bannedHosts, bannedHostsChannel } from "../moderation/banned-hosts";
import { NotificationListener } from "./listener";

/**
 * This instance's one listening connection to the url database: codes to evict from the
 * link cache, and changes of the banned hosts. It opens at the first lookup or the first
 * check of a new link's host, not at start.
 */
export const urlNotifications = new NotificationListener(
  new Map([
    [evictionChannel, cacheEvictions(urlCache)],
    [bannedHostsChannel, bannedHosts],
  ]),
  "cache evictions and host bans",
  () => db.connectionString,
  () => db.exec`SELECT 1`,
);

/** The service's start calls this once: a stopping instance closes its connection rather than leave it to be cut. */
export function closeNotificationsOnStop(): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => void urlNotifications.close());
  }
}
