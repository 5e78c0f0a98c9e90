import { APIError, ErrCode } from "encore.dev/api";
import { linkLimits } from "../../limits/links";
import { linkUrls, refuseBannedHosts } from "../moderation/host-check";
import { checkAlias, checkDescription, checkExpiresAt, checkMaxClicks, checkPassword, checkTitle } from "../records/options";
import { checkRedirectOptions, type RedirectOptions } from "../records/redirect-options";
import { checkRuleList, withRuleIds } from "../records/redirect-rules";
import { changedPreview, checkPreview, noPreview, type StoredPreview } from "../previews/preview-fields";
import { checkTarget } from "../shortening/target";
import { checkTagNames } from "../tagging/names";
import type { ImportRow } from "../../link-rules/import-rows";
import { ruleIdPattern, type RedirectRule, type RedirectRuleInput } from "../../link-rules/redirect-rules";

export type { ImportRow };

/** A row checked: what is stored, its password still in clear when it came so. */
export interface CheckedRow extends RedirectOptions {
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
  /** null when none (as POST /shorten stores a link without rules). */
  readonly redirectRules: RedirectRule[] | null;
  readonly preview: StoredPreview;
  /** The workspace's verified domain, as stored (lower case). */
  readonly domain: string | null;
}

/** The verified domain of the workspace imported into by a row's `domain`; throws POST /shorten's 400 when it has none by that name. */
export type DomainCheck = (host: string) => Promise<string>;

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
 * Every check POST /shorten makes of a link (records/options.ts, redirect-options.ts,
 * redirect-rules.ts, the preview's, shortening/target.ts, the tags' names, the hosts an
 * administrator banned, the domain's by `domainOf`), and those of what only an import
 * carries; throws the APIError of the first that fails.
 */
export async function checkRow(row: ImportRow, baseUrl: string, now: number, domainOf: DomainCheck): Promise<CheckedRow> {
  const target = checkTarget(row.url ?? "", baseUrl, linkLimits.config.deniedHosts);
  const expiresAt = row.expiresAt === undefined ? null : checkExpiresAt(dateOf(row.expiresAt, "expiresAt"), now);
  const checked: CheckedRow = {
    line: row.line,
    target,
    alias: row.alias === undefined ? null : checkAlias(row.alias),
    title: row.title === undefined ? null : checkTitle(row.title),
    description: row.description === undefined ? null : checkDescription(row.description),
    tags: row.tags === undefined ? [] : checkTagNames(row.tags),
    expiresAt,
    maxClicks: row.maxClicks === undefined ? null : checkMaxClicks(row.maxClicks),
    createdAt: row.createdAt === undefined ? null : checkCreatedAt(row.createdAt, now),
    clicks: row.clicks === undefined ? 0 : checkClicks(row.clicks),
    password: row.password === undefined ? null : checkPassword(row.password),
    passwordHash: row.passwordHash === undefined ? null : checkPasswordHash(row.passwordHash),
    ...checkRedirectOptions(
      {
        redirectType: row.redirectType,
        forwardQuery: row.forwardQuery,
        startsAt: row.startsAt === undefined ? undefined : dateOf(row.startsAt, "startsAt"),
        fallbackUrl: row.fallbackUrl,
        allowIndexing: row.allowIndexing,
        expiresAt: expiresAt ?? undefined,
      },
      baseUrl,
    ),
    redirectRules: row.rules === undefined ? null : importedRules(row.rules, baseUrl),
    preview: row.preview === undefined ? noPreview : changedPreview(noPreview, checkPreview(row.preview)),
    domain: null,
  };
  if (checked.password !== null && checked.passwordHash !== null) {
    throw APIError.invalidArgument("give a password or a passwordHash, not both");
  }
  await refuseBannedHosts(linkUrls(target, checked.fallbackUrl, checked.redirectRules));
  return row.domain === undefined ? checked : { ...checked, domain: await domainOf(row.domain) };
}

/**
 * A row's rules (JSON text) checked as POST /shorten checks them. Each keeps the id the file
 * gives it when well-formed and not already taken in the row, so an exported link's rules
 * keep their ids (the label of their clicks in analytics); others get new ones. Ids are a
 * link's own, so those of another link, here or elsewhere, never clash with them.
 */
function importedRules(text: string, baseUrl: string): RedirectRule[] | null {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    throw APIError.invalidArgument("rules must be a JSON list of rules, as an export writes them");
  }
  const rules = checkRuleList(list as RedirectRuleInput[], baseUrl, linkLimits.config.deniedHosts);
  if (rules.length === 0) return null;
  return withRuleIds(rules, new Set(rules.map((rule) => rule.id).filter((id) => ruleIdPattern.test(id))));
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
