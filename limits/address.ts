import ipaddr from "ipaddr.js";

/** A header is the client's to write behind a proxy: its length must not decide our memory use. */
const maxKeyLength = 64;

/**
 * The key a limit counts a client address under: an IPv4 address as it is, an IPv6
 * address by its /64 network (one subscriber gets a whole /64 and can pick any address in
 * it, so counting single IPv6 addresses would give each client 2^64 budgets), an
 * IPv4-mapped IPv6 address as its IPv4 address. Anything else is kept as written, cut
 * short. No address at all is undefined: a call from another service, which passed none.
 *
 * The address is `X-Forwarded-For` as an endpoint receives it: the runtime sets it to the
 * client's address (the connection's peer, or behind TRUST_PROXY=on the load balancer's entry).
 */
export function addressKey(forwardedFor: string | undefined): string | undefined {
  const address = forwardedFor?.trim();
  if (!address) return undefined;
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) return address;
  if (ipaddr.IPv6.isValid(address)) {
    const v6 = ipaddr.IPv6.parse(address);
    if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
    const [a, b, c, d] = v6.parts.map((part) => part.toString(16));
    return `${a}:${b}:${c}:${d}::/64`;
  }
  return address.slice(0, maxKeyLength);
}
