// The form of an API key: shared code, since the users service makes and stores keys and the
// auth handler tells a key from a JWT by its shape before it asks the users service about it.
import { createHash, randomBytes } from "node:crypto";

/** What every key starts with, so the auth handler tells a key from a JWT without a lookup. */
export const apiKeyMarker = "usk_";

/** `usk_` and 32 random bytes as base64url: 43 characters, 256 bits. */
const keyPattern = /^usk_[A-Za-z0-9_-]{43}$/;

/** Characters after `usk_` kept in the clear, so the owner can tell keys apart in a list. */
const prefixLength = 8;

export interface NewApiKey {
  /** Shown to the owner once, when created; never stored. */
  key: string;
  keyHash: string;
  prefix: string;
}

/** A new random key, its hash and its prefix. */
export function generateApiKey(): NewApiKey {
  const key = `${apiKeyMarker}${randomBytes(32).toString("base64url")}`;
  return { key, keyHash: hashApiKey(key), prefix: key.slice(apiKeyMarker.length, apiKeyMarker.length + prefixLength) };
}

/**
 * The stored form of a key: SHA-256, hex. A slow, salted hash (scrypt, as for passwords)
 * protects secrets that can be guessed; a key is 256 random bits, which no one can
 * enumerate however fast the hash, so a leaked table gives nothing away either way. A fast
 * hash without salt is what lets every request find its key by an index on the hash, at
 * the cost of one SHA-256 rather than 32 MiB and tens of milliseconds of scrypt each time.
 */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}

/** Whether `token` has the shape of a key (it may still be unknown, revoked or expired). */
export function isWellFormedApiKey(token: string): boolean {
  return keyPattern.test(token);
}
