import { APIError } from "encore.dev/api";
import { bannedHosts } from "./banned-hosts";
import { banNotifications } from "./ban-notifications";

/** One URL of a link (absolute, WHATWG-normalised) and the field it was given in. */
export interface LinkUrl {
  readonly field: string;
  readonly href: string;
}

/**
 * The URLs of a link, or of a change to one, with their fields: its target (`url`), its
 * fallbackUrl and each of its rules' url; those absent or cleared (null) are left out.
 */
export function linkUrls(url: string | undefined, fallbackUrl: string | null | undefined, rules: readonly { url: string }[] | null | undefined): LinkUrl[] {
  const urls: LinkUrl[] = [];
  if (url !== undefined) urls.push({ field: "url", href: url });
  if (typeof fallbackUrl === "string") urls.push({ field: "fallbackUrl", href: fallbackUrl });
  for (const [i, rule] of (rules ?? []).entries()) urls.push({ field: `rules[${i}].url`, href: rule.url });
  return urls;
}

/**
 * Refuses a link any of whose URLs points at a host, or under a parent domain of one, an
 * administrator banned: 400 invalid_argument, "links to <host> are not allowed", after the
 * field's name for any URL but the link's own (`fallbackUrl: links to …`). Every way of
 * storing or changing a link's URLs calls this after checkTarget (shortening/target.ts).
 * Answered from this instance's copy of the bans, kept current through the database's
 * notifications (banned-hosts.ts): a ban holds on every instance at once. All the URLs are
 * checked against one reading of the bans, which costs a query while the copy cannot be
 * trusted.
 */
export async function refuseBannedHosts(urls: readonly LinkUrl[]): Promise<void> {
  if (urls.length === 0) return;
  await banNotifications.start(); // the first check opens the listening connection, so the copy can be kept
  const entries = await bannedHosts.entriesFor(urls.map(({ href }) => new URL(href).hostname));
  const refused = entries.findIndex((entry) => entry !== undefined);
  if (refused === -1) return;
  const message = `links to ${entries[refused]} are not allowed`;
  const { field } = urls[refused]!;
  throw APIError.invalidArgument(field === "url" ? message : `${field}: ${message}`);
}

/** Refuses one target URL whose host an administrator banned, as refuseBannedHosts does a link's. */
export async function refuseBannedHost(href: string): Promise<void> {
  await refuseBannedHosts([{ field: "url", href }]);
}
