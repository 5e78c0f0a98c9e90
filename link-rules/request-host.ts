import type { IncomingMessage } from "node:http";

/**
 * The host a request was sent to, lower case, without port or trailing dot: its Host
 * header, or behind a trusted proxy (TRUST_PROXY=on) the first X-Forwarded-Host when the
 * proxy sends one (a proxy that rewrites Host for its upstream keeps the visitor's there).
 * The url service (which link a code answers on a host) and the web service (what / is on
 * a custom domain) read it alike.
 */
export function requestHost(req: IncomingMessage, trustProxy: boolean): string | undefined {
  const forwarded = trustProxy ? headerOf(req, "x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  const raw = forwarded || headerOf(req, "host");
  if (!raw) return undefined;
  const end = raw.startsWith("[") ? raw.indexOf("]") + 1 : raw.indexOf(":");
  return (end > 0 ? raw.slice(0, end) : raw).toLowerCase().replace(/\.$/, "");
}

/** One header's first value; req.rawHeaders, since reading req.headers builds the whole object (the redirect's hot path asks). */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.length === name.length && raw[i]!.toLowerCase() === name) return raw[i + 1];
  }
  return undefined;
}
