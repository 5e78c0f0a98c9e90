import { db } from "../db";
import { bannedHosts, bannedHostsChannel } from "./banned-hosts";
import { NotificationListener, type Subscriber } from "../../pg-notify/listener";
import { linkEventRelay, linkEventsChannel } from "../event-outbox/relay";

/**
 * This instance's listening connection for the links service: changes of the banned hosts,
 * so its copy of the bans stays current, and committed link events, which the relay
 * publishes (event-outbox/relay.ts). It opens at the service's start.
 */
export const banNotifications = new NotificationListener(
  new Map<string, Subscriber>([
    [bannedHostsChannel, bannedHosts],
    [linkEventsChannel, linkEventRelay],
  ]),
  "host bans and link events",
  () => db.connectionString,
  () => db.exec`SELECT 1`,
);

/** The service's start calls this once: a stopping instance closes its connection rather than leave it to be cut. */
export function closeBanNotificationsOnStop(): void {
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => void banNotifications.close());
  }
}
