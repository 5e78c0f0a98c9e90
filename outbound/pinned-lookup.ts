import type { LookupFunction } from "node:net";
import type { CheckedTarget } from "./target";

/**
 * A `lookup` for http(s).request that answers every question with the target's checked
 * address: the connection goes where target.ts looked, whatever the name resolves to by
 * then (DNS rebinding). TLS still checks the certificate against the URL's host name.
 */
export function pinnedLookup(target: CheckedTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
}
