import type { Fraction } from "fraction.js";

// Digits after the point for a value whose decimal expansion never ends (1/3), as Encore.
const REPEATING_SCALE = 10n;
// Values with a (rounded) leading digit at 10^-6 or below are written with an exponent.
const EXPONENT_THRESHOLD = -6;

/**
 * A decimal's text as Encore writes it (malachite's `fmt_sci`, complete size): every digit
 * of a value whose expansion ends ("0.1", "1234.5678", "100000000000000000000"), else
 * rounded to 10 digits after the point ("0.3333333333"); values below 10^-5 with an
 * exponent ("1e-6", "1.5e-7").
 */
export function formatDecimal(value: Fraction): string {
  const numerator = value.n;
  const denominator = value.d;
  if (numerator === 0n) return "0";
  const sign = value.s < 0n ? "-" : "";
  const terminatingScale = decimalPlaces(denominator);
  const scale = terminatingScale ?? REPEATING_SCALE;
  const scaled = numerator * 10n ** scale;
  // Rounded to nearest; an exact half would mean the expansion ends, so there are no ties.
  const digitsValue = terminatingScale !== null ? scaled / denominator : (2n * scaled + denominator) / (2n * denominator);
  // Malachite writes the sign before finding that the value rounds to zero.
  if (digitsValue === 0n) return `${sign}0.${"0".repeat(Number(REPEATING_SCALE))}`;
  const digits = digitsValue.toString();
  const exponent = digits.length - Number(scale) - 1;
  if (exponent <= EXPONENT_THRESHOLD) {
    const mantissa = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    return `${sign}${mantissa}e${exponent}`;
  }
  if (scale === 0n) return sign + digits;
  if (exponent < 0) return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`;
  return `${sign}${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
}

/** How many digits follow the point when the expansion ends (the denominator is 2^a·5^b); null when it never ends. */
function decimalPlaces(denominator: bigint): bigint | null {
  let rest = denominator;
  let twos = 0n;
  let fives = 0n;
  while (rest % 2n === 0n) {
    rest /= 2n;
    twos++;
  }
  while (rest % 5n === 0n) {
    rest /= 5n;
    fives++;
  }
  if (rest !== 1n) return null;
  return twos > fives ? twos : fives;
}
