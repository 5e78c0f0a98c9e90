import type { IncomingMessage } from "node:http";
import { rootLogger } from "../../log/root.ts";

/**
 * What X-Forwarded-For means to an endpoint that declares it, guaranteed as Encore's
 * gateway guarantees it: the address of the client, one entry, never what the client
 * chose to send. Without a trusted proxy (TRUST_PROXY off) that is the peer address of
 * the connection. Behind one load balancer (TRUST_PROXY=on) it is the last entry of
 * the header, the one the load balancer appended; a request without the header (or
 * with an empty last entry) falls back to the peer. Rewrites the request's header in
 * place, so currentRequest().headers agree.
 *
 * Runs only for endpoints that declare the header (the raw fast lane never calls it),
 * which is also where the first request that arrived with the header while TRUST_PROXY
 * is off is noticed (warnUntrustedProxyOnce).
 */
export function settleForwardedFor(req: IncomingMessage, trustProxy: boolean): void {
  const headers = req.headers;
  if (!trustProxy && !warnedUntrustedProxy) warnUntrustedProxyOnce(req);
  if (trustProxy) {
    const given = headers["x-forwarded-for"];
    const last = typeof given === "string" ? given.slice(given.lastIndexOf(",") + 1).trim() : "";
    if (last !== "") {
      headers["x-forwarded-for"] = last;
      return;
    }
  }
  const peer = peerAddress(req);
  if (peer === undefined) delete headers["x-forwarded-for"];
  else headers["x-forwarded-for"] = peer;
}

/** The connection's remote address; an IPv4 client of a dual-stack socket as plain IPv4. */
export function peerAddress(req: IncomingMessage): string | undefined {
  const address = req.socket.remoteAddress;
  return address?.startsWith("::ffff:") && address.includes(".") ? address.slice(7) : address;
}

let warnedUntrustedProxy = false;

/**
 * A client sending X-Forwarded-For while TRUST_PROXY is off is most often a proxy in
 * front of the app that the operator has not declared: then every request has the
 * proxy's address, and limits per address count the whole site as one client. Said once
 * per process, at the first such request; after it the check costs a boolean. The raw
 * headers are read, not `req.headers`: this function may already have replaced that
 * one with the peer's address for an earlier step of the same request (the auth handler).
 */
function warnUntrustedProxyOnce(req: IncomingMessage): void {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length !== 15 || name.toLowerCase() !== "x-forwarded-for") continue;
    warnedUntrustedProxy = true;
    rootLogger().warn(
      { peer: peerAddress(req) },
      "requests arrive with an X-Forwarded-For header while TRUST_PROXY is off: it is ignored, and each request counts " +
        "as coming from the connection's peer. Behind a proxy every client then has the proxy's address, and limits " +
        "per address (logins, links) count them all as one: behind exactly one load balancer, set TRUST_PROXY=on " +
        "(said once)",
    );
    return;
  }
}
