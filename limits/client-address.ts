import type { IncomingMessage } from "node:http";
import { addressKey } from "./address";

/**
 * The client's address key (limits/address.ts) for a raw endpoint. A typed endpoint that
 * declares X-Forwarded-For gets it settled by the runtime; a raw one sees the header as
 * the client sent it, so this applies the same rule: behind one trusted load balancer
 * (TRUST_PROXY=on) the header's last entry, the one the load balancer appended; otherwise,
 * or when there is none, the connection's peer. Never an entry the client chose.
 */
export function clientAddressKey(req: IncomingMessage, trustProxy: boolean): string | undefined {
  return addressKey(clientAddress(req, trustProxy));
}

/** The client's address as written, by the same rule (the country of a click is looked up from it). */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string | undefined {
  if (trustProxy) {
    const given = req.headers["x-forwarded-for"];
    const last = typeof given === "string" ? given.slice(given.lastIndexOf(",") + 1).trim() : "";
    if (last !== "") return last;
  }
  return req.socket.remoteAddress;
}
