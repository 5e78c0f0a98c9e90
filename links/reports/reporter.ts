import { createHmac } from "node:crypto";
import { db } from "../db";

// Who reported, without keeping their address: the address key (limits/address.ts) as an
// HMAC under the database's own random key (url migration 14), enough to tell that an
// address reports a link it already reported, and useless without the key.

let key: Promise<string> | undefined;

/** The reporter value stored for a client's address key; an address-less call (another service's) is one reporter. */
export async function reporterOf(address: string | undefined): Promise<string> {
  key ??= db.queryRow<{ key: string }>`SELECT key FROM link_report_key`.then((row) => row!.key);
  key.catch(() => (key = undefined)); // a failed read is retried by the next report
  return createHmac("sha256", await key).update(address ?? "").digest("base64url");
}
