import { createHmac, randomBytes } from "node:crypto";

/** The header a delivery's signature travels in. */
export const signatureHeader = "Webhook-Signature";

/** A new webhook's secret: 32 random bytes. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64url")}`;
}

/**
 * `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" under the secret>`: a receiver
 * recomputes v1 from the raw body and refuses an old t, so a captured delivery cannot be
 * replayed later nor its body changed.
 */
export function signatureOf(secret: string, body: string, timestampSeconds: number): string {
  const v1 = createHmac("sha256", secret).update(`${timestampSeconds}.${body}`).digest("hex");
  return `t=${timestampSeconds},v1=${v1}`;
}
