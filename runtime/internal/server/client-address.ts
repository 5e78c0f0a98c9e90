import type { IncomingMessage } from "node:http";

/**
 * What X-Forwarded-For means to an endpoint that declares it, guaranteed as Encore's
 * gateway guarantees it: the address of the client, one entry, never what the client
 * chose to send. Without a trusted proxy (TRUST_PROXY off) that is the peer address of
 * the connection. Behind one load balancer (TRUST_PROXY=on) it is the last entry of
 * the header, the one the load balancer appended; a request without the header (or
 * with an empty last entry) falls back to the peer. Rewrites the request's header in
 * place, so currentRequest().headers agree.
 */
export function settleForwardedFor(req: IncomingMessage, trustProxy: boolean): void {
  const headers = req.headers;
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
