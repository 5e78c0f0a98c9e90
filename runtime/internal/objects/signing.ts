import { createHmac, timingSafeEqual } from "node:crypto";

export type SignedMethod = "GET" | "PUT";

/** The query parameters a signed URL carries. */
export interface Signature {
  /** Unix seconds after which the URL is refused. */
  readonly expires: number;
  /** base64url HMAC-SHA256. */
  readonly signature: string;
}

/**
 * Signs and checks the local provider's URLs: an HMAC-SHA256 over the method, bucket,
 * name and expiry, so a URL grants exactly one operation on one object until it expires.
 * The clock is injected so tests move time instead of sleeping.
 */
export class UrlSigner {
  constructor(
    private readonly key: Buffer,
    private readonly nowMs: () => number = Date.now,
  ) {}

  sign(method: SignedMethod, bucket: string, name: string, ttlSeconds: number): Signature {
    const expires = Math.floor(this.nowMs() / 1000) + ttlSeconds;
    return { expires, signature: this.mac(method, bucket, name, expires).toString("base64url") };
  }

  /**
   * "valid" when `signature` was made with this key for exactly this operation and the
   * expiry has not passed; "expired" when it was but has; "invalid" otherwise.
   */
  verify(method: SignedMethod, bucket: string, name: string, expires: string, signature: string): "valid" | "expired" | "invalid" {
    // Only the canonical decimal form, so "0100" or "1e3" cannot stand for the signed value.
    if (!/^[1-9][0-9]{0,11}$/.test(expires)) return "invalid";
    const expiry = Number(expires);
    const given = Buffer.from(signature, "base64url");
    const expected = this.mac(method, bucket, name, expiry);
    // Lengths are public; timingSafeEqual compares the rest in constant time. Decoding skips
    // characters outside base64url, so the text must also be the canonical form.
    const matches = given.length === expected.length && timingSafeEqual(given, expected) && given.toString("base64url") === signature;
    if (!matches) return "invalid";
    return expiry * 1000 <= this.nowMs() ? "expired" : "valid";
  }

  private mac(method: SignedMethod, bucket: string, name: string, expires: number): Buffer {
    // Names and bucket names never hold control characters, so "\n" separates fields unambiguously.
    return createHmac("sha256", this.key).update(`${method}\n${bucket}\n${name}\n${expires}`).digest();
  }
}
