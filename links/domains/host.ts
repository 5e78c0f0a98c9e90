import { APIError } from "encore.dev/api";
import { isIP } from "node:net";
import { domainToASCII } from "node:url";

/** Longest DNS name (RFC 1035), and longest label. */
const longestName = 253;
const longestLabel = 63;
const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A custom domain's host as stored: a DNS name of two labels or more, lower case, an IDN
 * in punycode (node:url's domainToASCII), no port, no trailing dot. Not an IP address
 * (a link on an address is not a domain of anyone's), not localhost, and not the
 * instance's own host (`ownHost`, PUBLIC_BASE_URL's), whose links are the links without a
 * domain. 400 invalid_argument naming `host` otherwise.
 */
export function checkHost(raw: string, ownHost: string): string {
  const trimmed = raw.trim().replace(/\.$/, "");
  if (trimmed === "" || /[/:@?#\s]/.test(trimmed)) throw invalid("host must be a DNS name, without scheme, port or path");
  if (isIP(trimmed) !== 0 || isIP(trimmed.replace(/^\[|\]$/g, "")) !== 0) throw invalid("host must be a DNS name, not an IP address");
  const host = domainToASCII(trimmed.toLowerCase());
  if (host === "" || host.length > longestName) throw invalid("host must be a DNS name of at most 253 characters");
  const labels = host.split(".");
  if (labels.length < 2 || !labels.every((l) => l.length <= longestLabel && label.test(l))) {
    throw invalid("host must be a DNS name of two labels or more (letters, digits and hyphens)");
  }
  // A numeric last label makes it an address to resolvers (1.2.3.4 in other spellings).
  if (/^[0-9]+$/.test(labels.at(-1)!)) throw invalid("host must be a DNS name, not an IP address");
  if (host === "localhost" || host.endsWith(".localhost")) throw invalid("host must not be localhost");
  if (host === ownHost) throw invalid("host is this instance's own host; links without a domain answer there");
  return host;
}

function invalid(message: string): APIError {
  return APIError.invalidArgument(message).withDetails({ field: "host" });
}
