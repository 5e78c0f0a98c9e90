import { db } from "../db";
import { bannedHosts, bannedHostsChannel } from "./banned-hosts";
import { NotificationListener } from "../../pg-notify/listener";

/**
 * This instance's listening connection for the links service: changes of the banned hosts,
 * so its copy of the bans stays current. It opens at the first check of a new link's host,
 * not at start.
 */
export const banNotifications = new NotificationListener(
  new Map([[bannedHostsChannel, bannedHosts]]),
  "host bans",
  () => db.connectionString,
  () => db.exec`SELECT 1`,
);

/** The service's start calls this once: a stopping instance closes its connection rather than leave it to be cut. */
export function closeBanNotificationsOnStop(): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => void banNotifications.close());
  }
}
