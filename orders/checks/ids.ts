import { APIError } from "encore.dev/api";

// Ids are PostgreSQL `serial` (int4): endpoints declare them `Min<1> & Max<2147483647>`
// so an out-of-range value is a 400, not a failed query, and this keeps 1.5 from
// reaching one. Encore.ts has no integer-only type, so that check is the handler's first step.

/** Rejects a non-integer id or quantity with 400 before any query runs. */
export function requireInteger(value: number, field: string): void {
  if (!Number.isInteger(value)) throw APIError.invalidArgument(`${field} must be a whole number, got ${value}`);
}
