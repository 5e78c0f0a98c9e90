import { APIError } from "encore.dev/api";
import { checkTarget } from "../shortening/target";
import { linkLimits } from "../../limits/links";
import { refuseBannedHost } from "../moderation/host-check";

/**
 * A domain's root or not-found URL (`field` names it in errors): checked as a link's
 * target is (http(s), not this service, not a denied or banned host), and not on the
 * domain itself, where it would send visitors round in a loop.
 */
export async function checkDomainUrl(field: "rootUrl" | "notFoundUrl", input: string, host: string, ownBaseUrl: string): Promise<string> {
  let href: string;
  try {
    href = checkTarget(input, ownBaseUrl, linkLimits.config.deniedHosts);
    await refuseBannedHost(href);
  } catch (err) {
    if (err instanceof APIError) throw APIError.invalidArgument(err.message.replace(/^url\b/, field));
    throw err;
  }
  if (new URL(href).hostname.replace(/\.$/, "").toLowerCase() === host) {
    throw APIError.invalidArgument(`${field} must not be on the domain itself: visitors would go round in a loop`);
  }
  return href;
}
