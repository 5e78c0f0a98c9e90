import { randomBytes } from "node:crypto";

export const codeLength = 6;
const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";

// 252 = 7 × 36: bytes at or above it are dropped, so every character is equally likely
// (a plain `byte % 36` would favour the first 4 characters).
const unbiasedLimit = 256 - (256 % alphabet.length);

/** A random code, or an alias (links/options.ts checkAlias): 3 to 64 letters, digits, "-" and "_". */
const validCode = /^[A-Za-z0-9_-]{3,64}$/;

/** A new random code: 6 characters of [a-z0-9] from the system's CSPRNG. */
export function generateCode(): string {
  let code = "";
  while (code.length < codeLength) {
    for (const byte of randomBytes(codeLength * 2)) {
      if (byte >= unbiasedLimit) continue;
      code += alphabet[byte % alphabet.length];
      if (code.length === codeLength) break;
    }
  }
  return code;
}

/** Anything else cannot be a stored code, so it needs no database query. */
export function isWellFormedCode(value: string): boolean {
  return validCode.test(value);
}
