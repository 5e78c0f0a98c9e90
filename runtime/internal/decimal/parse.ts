import { Fraction } from "fraction.js";

// Encore's bounds (runtimes/core/src/api/pvalue.rs): they keep a hostile text from costing
// unbounded work, and no real amount comes near them.
const MAX_TEXT_BYTES = 1 << 18;
const MAX_ABS_EXPONENT = 16384n;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Why a text is not a decimal, in the words of Encore's runtime; null when it is one. */
export type DecimalParse = { readonly value: Fraction } | { readonly error: string };

/**
 * Reads a decimal as Encore does (malachite's `Rational::from_sci_string`): an optional
 * `-`, digits with at most one `.`, an optional exponent `e`/`E` with an optional sign.
 * The value is exact: "0.1" is 1/10.
 */
export function parseDecimal(text: string): DecimalParse {
  const bytes = Buffer.byteLength(text, "utf8");
  if (bytes > MAX_TEXT_BYTES) return { error: `decimal string too long: ${bytes} bytes` };
  const marker = Math.max(text.lastIndexOf("e"), text.lastIndexOf("E"));
  if (marker >= 0) {
    const exponent = parseInt64(text.slice(marker + 1));
    if (exponent !== null && (exponent < 0n ? -exponent : exponent) > MAX_ABS_EXPONENT) {
      return { error: `decimal exponent out of range: ${exponent}` };
    }
  }
  const value = readScientific(text, marker);
  return value ? { value } : { error: `Failed to parse decimal from string: ${text}` };
}

function readScientific(text: string, marker: number): Fraction | null {
  let digits = text;
  let exponent = 0n;
  if (marker >= 0) {
    if (marker === 0 || marker === text.length - 1) return null;
    const parsed = parseInt64(text.slice(marker + 1));
    if (parsed === null) return null;
    exponent = parsed;
    digits = text.slice(0, marker);
  }
  const point = digits.indexOf(".");
  if (point >= 0) {
    const after = digits.slice(point + 1);
    if (after.startsWith("+") || after.startsWith("-")) return null;
    exponent -= BigInt(after.length);
    digits = digits.slice(0, point) + after;
  }
  const negative = digits.startsWith("-");
  const magnitude = negative ? digits.slice(1) : digits;
  if (!/^[0-9]+$/.test(magnitude)) return null;
  const integer = BigInt(magnitude) * (negative ? -1n : 1n);
  return exponent >= 0n ? new Fraction(integer * 10n ** exponent) : new Fraction(integer, 10n ** -exponent);
}

/** Rust's `i64::from_str`: an optional sign, then ASCII digits, within 64 bits. */
function parseInt64(text: string): bigint | null {
  if (!/^[+-]?[0-9]+$/.test(text)) return null;
  const value = BigInt(text);
  return value < INT64_MIN || value > INT64_MAX ? null : value;
}
