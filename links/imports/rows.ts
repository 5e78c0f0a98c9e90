import { APIError, ErrCode } from "encore.dev/api";
import { linkLimits } from "../../limits/links";
import { refuseBannedHost } from "../moderation/host-check";
import { checkAlias, checkDescription, checkExpiresAt, checkMaxClicks, checkPassword, checkTitle } from "../records/options";
import { checkTarget } from "../shortening/target";
import { checkTagNames } from "../tagging/names";
import type { ImportRow } from "../../link-rules/import-rows";

export type { ImportRow };

/** A row checked: what is stored, its password still in clear when it came so. */
export interface CheckedRow {
  readonly line: number;
  readonly target: string;
  readonly alias: string | null;
  readonly title: string | null;
  readonly description: string | null;
  readonly tags: readonly string[];
  readonly expiresAt: Date | null;
  readonly maxClicks: number | null;
  readonly createdAt: Date | null;
  readonly clicks: number;
  readonly password: string | null;
  readonly passwordHash: string | null;
}

/** urls.clicks is a PostgreSQL INTEGER. */
const maxClicksTotal = 2 ** 31 - 1;
/**
 * A hash as passwords/passwords.ts makes new ones: its parameters (N = 2^15, r = 8, p = 1), a
 * 16-byte salt and a 64-byte key. Only those: a hash names the memory its check takes, and one
 * a file brought with larger parameters would make each guess at the link cost gigabytes.
 * (imports/rows.test.ts checks that a fresh hash passes, so a change of parameters shows here.)
 */
const hashShape = /^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{86}==$/;

/**
 * Every check POST /shorten makes of a link (records/options.ts, shortening/target.ts, the
 * tags' names, the hosts an administrator banned), and those of what only an import
 * carries; throws the APIError of the first that fails.
 */
export async function checkRow(row: ImportRow, baseUrl: string, now: number): Promise<CheckedRow> {
  const target = checkTarget(row.url ?? "", baseUrl, linkLimits.config.deniedHosts);
  const checked: CheckedRow = {
    line: row.line,
    target,
    alias: row.alias === undefined ? null : checkAlias(row.alias),
    title: row.title === undefined ? null : checkTitle(row.title),
    description: row.description === undefined ? null : checkDescription(row.description),
    tags: row.tags === undefined ? [] : checkTagNames(row.tags),
    expiresAt: row.expiresAt === undefined ? null : checkExpiresAt(dateOf(row.expiresAt, "expiresAt"), now),
    maxClicks: row.maxClicks === undefined ? null : checkMaxClicks(row.maxClicks),
    createdAt: row.createdAt === undefined ? null : checkCreatedAt(row.createdAt, now),
    clicks: row.clicks === undefined ? 0 : checkClicks(row.clicks),
    password: row.password === undefined ? null : checkPassword(row.password),
    passwordHash: row.passwordHash === undefined ? null : checkPasswordHash(row.passwordHash),
  };
  if (checked.password !== null && checked.passwordHash !== null) {
    throw APIError.invalidArgument("give a password or a passwordHash, not both");
  }
  await refuseBannedHost(target);
  return checked;
}

function dateOf(value: string, field: string): Date {
  const date = new Date(value);
  if (typeof value !== "string" || value.trim() === "" || Number.isNaN(date.getTime())) {
    throw APIError.invalidArgument(`${field} must be a date and time such as 2030-01-31T12:00:00Z, got "${String(value).slice(0, 40)}"`);
  }
  return date;
}

/** A day's drift of clocks is allowed; a link made later than that is a mistake of the file. */
function checkCreatedAt(value: string, now: number): Date {
  const date = dateOf(value, "createdAt");
  if (date.getTime() > now + 24 * 3600 * 1000) throw APIError.invalidArgument("createdAt must not be in the future");
  if (date.getUTCFullYear() < 1990) throw APIError.invalidArgument("createdAt must be in 1990 or later");
  return date;
}

function checkClicks(clicks: number): number {
  if (!Number.isInteger(clicks) || clicks < 0 || clicks > maxClicksTotal) {
    throw APIError.invalidArgument(`clicks must be a whole number from 0 to ${maxClicksTotal}`);
  }
  return clicks;
}

export function checkPasswordHash(hash: string): string {
  if (!hashShape.test(hash)) throw APIError.invalidArgument("passwordHash must be a hash this app stored (scrypt$N$r$p$salt$key), as its JSON export gives it");
  return hash;
}

/** The message a row's failure is reported with: an APIError's own, never an internal error's details. */
export function rowErrorOf(err: unknown): string | null {
  if (err instanceof APIError && err.code !== ErrCode.Internal && err.code !== ErrCode.Unknown) return err.message;
  return null;
}
