import { randomFillSync } from "node:crypto";

export const codeLength = 6;
const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";

// 252 = 7 × 36: bytes at or above it are dropped, so every character is equally likely
// (a plain `byte % 36` would favour the first 4 characters).
const unbiasedLimit = 256 - (256 % alphabet.length);

/** A random code, or an alias (links/options.ts checkAlias): 3 to 64 letters, digits, "-" and "_". */
const validCode = /^[A-Za-z0-9_-]{3,64}$/;

/**
 * Random bytes drawn 4 KiB at a time: one call into the CSPRNG serves some 600 codes,
 * where a call per code was a measurable part of a shorten's time.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++]!;
}

/** A new random code: 6 characters of [a-z0-9] from the system's CSPRNG. */
export function generateCode(): string {
  let code = "";
  while (code.length < codeLength) {
    const byte = randomByte();
    if (byte < unbiasedLimit) code += alphabet[byte % alphabet.length];
  }
  return code;
}

/** Anything else cannot be a stored code, so it needs no database query. */
export function isWellFormedCode(value: string): boolean {
  return validCode.test(value);
}
