import { BlockList, isIP } from "node:net";

/**
 * Addresses a webhook may not reach unless an operator allows it: everything that is not
 * the public internet. IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are checked against
 * the IPv4 ranges by BlockList itself.
 */
const nonPublic = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // unspecified, "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  nonPublic.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b::", 96], // NAT64: an IPv4 address behind it may be anything
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  nonPublic.addSubnet(network, prefix, "ipv6");
}

/** Whether `address` (an IP literal) is outside the public internet. */
export function isNonPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true; // not an address at all: never trusted
  return nonPublic.check(address, family === 4 ? "ipv4" : "ipv6");
}
