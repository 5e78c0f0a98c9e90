import { APIError } from "encore.dev/api";
import { bannedHosts } from "./banned-hosts";
import { banNotifications } from "./ban-notifications";

/**
 * Refuses a new link's target (absolute, WHATWG-normalised) whose host, or a parent
 * domain of it, an administrator banned: 400 invalid_argument. Every way of storing or
 * changing a link's URL calls this after checkTarget (shortening/target.ts). Answered
 * from this instance's copy of the bans, kept current through the database's
 * notifications (banned-hosts.ts): a ban holds on every instance at once.
 */
export async function refuseBannedHost(href: string): Promise<void> {
  await banNotifications.start(); // the first check opens the listening connection, so the copy can be kept
  const banned = await bannedHosts.entryFor(new URL(href).hostname);
  if (banned !== undefined) throw APIError.invalidArgument(`links to ${banned} are not allowed`);
}
