import { APIError } from "encore.dev/api";

export const dayMs = 86_400_000;

/** Reads a YYYY-MM-DD date (UTC midnight); anything else is invalid_argument naming `name`. */
export function parseDay(text: string, name: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  // Date.UTC rolls 2026-02-30 over to March; a real date reads back the same.
  if (!day || isoDay(day) !== text) throw APIError.invalidArgument(`${name} must be a date as YYYY-MM-DD, got "${text}"`);
  return day;
}

/** Midnight UTC at the start of the current day. */
export function today(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

/** YYYY-MM-DD of a UTC date. */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}
