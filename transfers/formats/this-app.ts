import type { ImportPreview, ImportRow } from "../../link-rules/import-rows";
import { flagOf, instantOf, RowError, tagsOf, textOf, wholeNumberOf } from "./records";

// This app's own files: the CSV of the import template and of the CSV export, and the JSON
// export. Columns are matched by columnKey, so "expiresAt", "expires_at" and "Expires At"
// are one; columns not named here (shortUrl, status) are ignored; hasPassword "yes" without a password refuses the row.

/** A link's redirect options, domain, preview and targeting rules (a JSON list, as the Link answers it): the last columns of the template and of the CSV export. */
export const linkOptionColumns = [
  "domain",
  "redirectType",
  "forwardQuery",
  "startsAt",
  "fallbackUrl",
  "allowIndexing",
  "previewTitle",
  "previewDescription",
  "previewImage",
  "rules",
] as const;

/** The CSV columns, in the template's order; url is required. A link's redirect options, preview, domain and rules come last, as the export writes them. */
export const csvColumns = [
  "url",
  "alias",
  "title",
  "description",
  "tags",
  "expiresAt",
  "maxClicks",
  "createdAt",
  "clicks",
  "password",
  ...linkOptionColumns,
] as const;

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
    domain: textOf(f.domain),
    redirectType: wholeNumberOf(f.redirecttype, "redirectType"),
    forwardQuery: flagOf(f.forwardquery, "forwardQuery"),
    startsAt: instantOf(f.startsat, "startsAt"),
    fallbackUrl: textOf(f.fallbackurl),
    allowIndexing: flagOf(f.allowindexing, "allowIndexing"),
    rules: textOf(f.rules),
    preview: previewOf({ title: f.previewtitle, description: f.previewdescription, image: f.previewimage }),
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
    domain: textOf(f.domain),
    redirectType: wholeNumberOf(f.redirectType, "redirectType"),
    forwardQuery: flagOf(f.forwardQuery, "forwardQuery"),
    startsAt: instantOf(f.startsAt, "startsAt"),
    fallbackUrl: textOf(f.fallbackUrl),
    allowIndexing: flagOf(f.allowIndexing, "allowIndexing"),
    // As JSON text whatever it holds: the links service reads it and says what is wrong with it.
    rules: f.rules === undefined || f.rules === null ? undefined : JSON.stringify(f.rules),
    preview: jsonPreviewOf(f.preview),
  };
}

function jsonPreviewOf(value: unknown): ImportPreview | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) throw new RowError("preview must be an object of title, description and image");
  const { title, description, image } = value as Record<string, unknown>;
  return previewOf({ title, description, image });
}

/** The preview's fields as text; absent when none has a value. */
function previewOf(fields: Record<keyof ImportPreview, unknown>): ImportPreview | undefined {
  const preview: ImportPreview = {};
  for (const key of ["title", "description", "image"] as const) {
    const text = textOf(fields[key]);
    if (text !== undefined) preview[key] = text;
  }
  return Object.keys(preview).length === 0 ? undefined : preview;
}
