import { APIError } from "encore.dev/api";
import { bareHost, checkTargetHost } from "../../limits/links";

export const maxUrlLength = 2048;

/**
 * Checks a URL submitted for shortening and returns it normalised (WHATWG).
 * Only absolute http(s) URLs: javascript:, data: and file: links would run code or
 * read files in the browser that follows them. No user name or password before the host
 * (https://user:pass@host/): the short link would hand them to everyone who follows it,
 * and the host is easily disguised (https://bank.example@evil.example/). A link to this service itself
 * would redirect in a loop, or chain short links: its host is refused however it is
 * spelt (a trailing dot, another port or scheme; see bareHost). Hosts the operator denied (DENIED_TARGET_HOSTS) and their
 * subdomains are refused too. Hosts an administrator banned are checked after this, by
 * refuseBannedHosts (moderation/host-check.ts), which may have to read the database.
 * `field` is the input's name in the messages (a link's fallbackUrl is checked as its url).
 */
export function checkTarget(input: string, ownBaseUrl: string, deniedHosts: readonly string[] = [], field = "url"): string {
  if (input.trim() === "") throw APIError.invalidArgument(`${field} must not be empty`);
  if (input.length > maxUrlLength) {
    throw APIError.invalidArgument(`${field} must be at most ${maxUrlLength} characters, got ${input.length}`);
  }
  let parsed: URL;
  try {
    parsed = new URL(input);
  } catch {
    throw APIError.invalidArgument(`${field} must be an absolute URL such as https://example.com/page`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw APIError.invalidArgument(`${field} must use http or https, not ${parsed.protocol.slice(0, -1)}`);
  }
  if (parsed.username !== "" || parsed.password !== "") {
    throw APIError.invalidArgument(`${field} must not hold a user name or password (user:password@host): whoever follows the short link would get them`);
  }
  if (bareHost(parsed.hostname) === bareHost(new URL(ownBaseUrl).hostname)) {
    throw APIError.invalidArgument(`${field} must not point at this service: the short link would redirect to itself`);
  }
  if (parsed.href.length > maxUrlLength) {
    throw APIError.invalidArgument(`${field} must be at most ${maxUrlLength} characters once normalised`);
  }
  checkTargetHost(parsed.href, deniedHosts, field);
  return parsed.href;
}
