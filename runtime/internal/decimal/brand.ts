/**
 * Marks Decimal instances, so the runtime recognises one made by any copy of the class (an
 * app bundled with its own copy of encore.dev/types, a test runner's second module graph),
 * where `instanceof` would not.
 */
export const DECIMAL_BRAND: unique symbol = Symbol.for("encore-selfhost.Decimal");

export function isDecimal(value: unknown): value is { readonly value: string } {
  return typeof value === "object" && value !== null && (value as { [DECIMAL_BRAND]?: unknown })[DECIMAL_BRAND] === true;
}
