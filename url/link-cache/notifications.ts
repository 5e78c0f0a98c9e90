import { db } from "../db";
import { urlCache } from "./cache";
import { cacheEvictions, evictionChannel } from "./evictions";
import { NotificationListener } from "../../pg-notify/listener";
import { customDomains } from "../domains/custom-domains";
import { domainsChannel } from "../domains/domain-set";

/**
 * This instance's listening connection to the url database: codes to evict from the link
 * cache, and changes of the custom domains (domains/domain-set.ts). It opens at the first
 * lookup, not at start.
 */
export const urlNotifications = new NotificationListener(
  new Map([
    [evictionChannel, cacheEvictions(urlCache)],
    [domainsChannel, customDomains.subscriber],
  ]),
  "cache evictions and domain changes",
  () => db.connectionString,
  () => db.exec`SELECT 1`,
);

/** The service's start calls this once: a stopping instance closes its connection rather than leave it to be cut. */
export function closeNotificationsOnStop(): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => void urlNotifications.close());
  }
}
