import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { isNonPublicAddress } from "./address-ranges";

/** A URL and the one address a request to it may connect to (pinned-lookup.ts). */
export interface CheckedTarget {
  readonly url: URL;
  readonly address: string;
  readonly family: 4 | 6;
}

/** Why a URL is refused: said to the caller (a webhook's 400, a preview not fetched) or logged as an attempt's error. */
export class TargetRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TargetRefused";
  }
}

export interface TargetRules {
  /** The app's own base URL (PUBLIC_BASE_URL): never a target. */
  readonly ownBaseUrl: string;
  /** Whether non-public addresses may be reached (WEBHOOK_ALLOW_PRIVATE_TARGETS, PREVIEW_ALLOW_PRIVATE_TARGETS): tests, an intranet. */
  readonly allowPrivate: boolean;
}

/** The URL's form: absolute http(s), no credentials; throws TargetRefused otherwise. */
export function parseTarget(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new TargetRefused("url must be an absolute http or https URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TargetRefused("url must be an absolute http or https URL");
  if (url.username !== "" || url.password !== "") throw new TargetRefused("url must not hold a user name or password");
  return url;
}

/**
 * Resolves the URL's host and checks every address it has: the app's own host is refused
 * always (a webhook to itself would loop, a fetch of itself reads its own pages), a non-public
 * address unless allowed. Requests connect to the address returned, and only to it
 * (pinned-lookup.ts), so a name that resolves
 * elsewhere a moment later (DNS rebinding) changes nothing.
 */
export async function checkTarget(input: string, rules: TargetRules): Promise<CheckedTarget> {
  const url = parseTarget(input);
  const own = new URL(rules.ownBaseUrl);
  const host = bare(url.hostname);
  if (url.origin === own.origin || (!rules.allowPrivate && host === bare(own.hostname))) {
    throw new TargetRefused("url must not point at this app itself");
  }
  const addresses = isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : await resolve(host);
  if (!rules.allowPrivate) {
    const refused = addresses.find((a) => isNonPublicAddress(a.address));
    if (refused) {
      throw new TargetRefused(
        `url's host ${host} is ${refused.address === host ? "" : `at ${refused.address}, `}a loopback, private or otherwise non-public address: only public hosts are reached`,
      );
    }
  }
  const [first] = addresses;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

async function resolve(host: string): Promise<{ address: string; family: number }[]> {
  try {
    const found = await lookup(host, { all: true, verbatim: true });
    if (found.length === 0) throw new Error("no address");
    return found;
  } catch {
    throw new TargetRefused(`url's host ${host} has no address`);
  }
}

/** A hostname without IPv6 brackets or a trailing dot, in lower case. */
function bare(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase();
}
