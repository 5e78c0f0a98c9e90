import type { ImportRow } from "../../link-rules/import-rows";
import { instantOf, RowError, tagsOf, textOf, wholeNumberOf } from "./records";

// This app's own files: the CSV of the import template and of the CSV export, and the JSON
// export. Columns are matched by columnKey, so "expiresAt", "expires_at" and "Expires At"
// are one; columns not named here (shortUrl, status) are ignored; hasPassword "yes" without a password refuses the row.

/** The CSV columns, in the template's order; url is required. */
export const csvColumns = ["url", "alias", "title", "description", "tags", "expiresAt", "maxClicks", "createdAt", "clicks", "password"] as const;

/** A row of this app's CSV: its keys are column keys (lower case). Tags are separated by commas (a tag's name has none). */
export function csvRow(f: Record<string, unknown>, line: number): ImportRow {
  if (textOf(f.haspassword)?.toLowerCase() === "yes" && textOf(f.password) === undefined) {
    throw new RowError("the link has a password, which a CSV export does not carry: give it in a password column, or export JSON as the workspace's owner or an admin");
  }
  return {
    line,
    url: textOf(f.url) ?? "",
    alias: textOf(f.alias ?? f.code),
    title: textOf(f.title),
    description: textOf(f.description),
    tags: tagsOf(f.tags, ","),
    expiresAt: instantOf(f.expiresat, "expiresAt"),
    maxClicks: wholeNumberOf(f.maxclicks, "maxClicks"),
    createdAt: instantOf(f.createdat, "createdAt"),
    clicks: wholeNumberOf(f.clicks, "clicks"),
    password: textOf(f.password),
  };
}

/**
 * A link of this app's JSON export. A password link whose hash the export does not carry
 * (exported by a member, not the owner or an admin) is refused: imported without, it would
 * open to everyone.
 */
export function jsonRow(f: Record<string, unknown>, line: number): ImportRow {
  const passwordHash = textOf(f.passwordHash);
  if (f.hasPassword === true && passwordHash === undefined && f.password === undefined) {
    throw new RowError("the link has a password, which this export does not carry (only a workspace's owner and admins export it): add a password to the row or leave hasPassword out");
  }
  return {
    line,
    url: textOf(f.originalUrl ?? f.url) ?? "",
    alias: textOf(f.code ?? f.alias),
    title: textOf(f.title),
    description: textOf(f.description),
    tags: tagsOf(f.tags, ","),
    expiresAt: instantOf(f.expiresAt, "expiresAt"),
    maxClicks: wholeNumberOf(f.maxClicks, "maxClicks"),
    createdAt: instantOf(f.createdAt, "createdAt"),
    clicks: wholeNumberOf(f.clicks, "clicks"),
    password: textOf(f.password),
    passwordHash,
  };
}
