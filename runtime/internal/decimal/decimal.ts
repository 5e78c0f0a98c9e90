import { Fraction } from "fraction.js";
import { DECIMAL_BRAND } from "./brand.ts";
import { formatDecimal } from "./format.ts";
import { parseDecimal } from "./parse.ts";

export type ToDecimal = string | number | bigint;

/**
 * A decimal of arbitrary precision. As in Encore (whose runtime keeps a malachite
 * `Rational`), the value is an exact fraction: sums, differences and products are exact,
 * and so is a quotient, which is rounded only when written (to 10 digits after the point
 * when its expansion never ends): `new Decimal(1).div(3).mul(3)` is exactly 1.
 */
export class Decimal {
  private impl: Fraction;
  declare readonly [DECIMAL_BRAND]: true;

  constructor(value: ToDecimal) {
    this.impl = fractionOf(String(value));
  }

  private static fromImpl(impl: Fraction): Decimal {
    const decimal = Object.create(Decimal.prototype) as Decimal;
    decimal.impl = impl;
    return decimal;
  }

  private toImpl(value: Decimal | ToDecimal): Fraction {
    return value instanceof Decimal ? value.impl : fractionOf(String(value));
  }

  add(d: Decimal | ToDecimal): Decimal {
    return Decimal.fromImpl(this.impl.add(this.toImpl(d)));
  }

  sub(d: Decimal | ToDecimal): Decimal {
    return Decimal.fromImpl(this.impl.sub(this.toImpl(d)));
  }

  mul(d: Decimal | ToDecimal): Decimal {
    return Decimal.fromImpl(this.impl.mul(this.toImpl(d)));
  }

  /** Throws a RangeError on division by zero (where Encore's native code panics). */
  div(d: Decimal | ToDecimal): Decimal {
    const divisor = this.toImpl(d);
    if (divisor.n === 0n) throw new RangeError("Decimal division by zero");
    return Decimal.fromImpl(this.impl.div(divisor));
  }

  get value(): string {
    return formatDecimal(this.impl);
  }

  toJSON(): string {
    return this.value;
  }

  toString(): string {
    return this.value;
  }

  [Symbol.toPrimitive](hint: string): string | number {
    return hint === "number" ? +this.value : this.value;
  }
}

Object.defineProperty(Decimal.prototype, DECIMAL_BRAND, { value: true });

/** Parses as Encore's native Decimal does, and throws its error (code "InvalidArg") on a bad text. */
function fractionOf(text: string): Fraction {
  const parsed = parseDecimal(text);
  if ("value" in parsed) return parsed.value;
  throw Object.assign(new Error(`Invalid decimal format: '${parsed.error}'`), { code: "InvalidArg" });
}
