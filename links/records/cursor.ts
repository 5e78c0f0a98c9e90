import { APIError } from "encore.dev/api";

/** The orders GET /links lists in: newest first (by id), or most clicked first (ties newest first). */
export type LinkSort = "newest" | "clicks";

/** GET /admin/links's orders: those, or most open reports first (ties newest first). */
export type AdminLinkSort = LinkSort | "reports";

const tags: Record<AdminLinkSort, "n" | "c" | "r"> = { newest: "n", clicks: "c", reports: "r" };

/**
 * Where a page ended, in the list's order: the last link's id, and for the clicks order its
 * stored clicks then. Keyset paging: the next page starts after this position, so links
 * added meanwhile neither repeat nor shift the pages. In the clicks order a link clicked
 * between two pages moves, and may then be seen twice or not at all, as in any list ordered
 * by a count that changes.
 */
export interface LinkPosition {
  readonly id: number;
  /** Only in the clicks order; in the reports order, the link's open reports. */
  readonly clicks?: number;
}

/** Ids and clicks are PostgreSQL INTEGERs. */
const maxInt = 2 ** 31 - 1;

/** Opaque to clients (base64url of JSON), so its contents may change without breaking them. */
export function encodeCursor(sort: AdminLinkSort, position: LinkPosition): string {
  const body = sort === "newest" ? { s: "n", i: position.id } : { s: tags[sort], c: position.clicks, i: position.id };
  return Buffer.from(JSON.stringify(body)).toString("base64url");
}

/** The position a cursor names, for a list in `sort` order; 400 invalid_argument for anything else. */
export function decodeCursor(cursor: string, sort: AdminLinkSort): LinkPosition {
  const fields = parse(cursor);
  if (fields === undefined) throw APIError.invalidArgument("cursor must be the nextCursor of a previous page");
  const { s, i, c } = fields;
  const from: AdminLinkSort = s === "n" ? "newest" : s === "c" ? "clicks" : "reports";
  if (from !== sort) throw APIError.invalidArgument(`cursor is from a list sorted by ${from}, not by ${sort}`);
  return sort === "newest" ? { id: i } : { id: i, clicks: c };
}

function parse(cursor: string): { s: "n" | "c" | "r"; i: number; c?: number } | undefined {
  // Checked first: Buffer's base64url decoding skips what it does not know, so "a!b" would decode.
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(cursor)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { s, i, c, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || !isInt(i, 1)) return undefined;
  if (s === "n" && c === undefined) return { s, i };
  if ((s === "c" || s === "r") && isInt(c, 0)) return { s, i, c };
  return undefined;
}

function isInt(value: unknown, min: number): value is number {
  return Number.isInteger(value) && (value as number) >= min && (value as number) <= maxInt;
}
