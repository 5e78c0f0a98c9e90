import { stringify } from "csv-stringify/sync";
import type { links } from "~encore/clients";
import { linkOptionColumns } from "../formats/this-app";

/** A link as the links service's export page answers it. */
export type ExportedLink = Awaited<ReturnType<typeof links.exportLinks>>["links"][number];

/**
 * The CSV export's columns: the import's (url, alias, …) first, so the file imports as it is,
 * then what is only told, then the link's options the import reads too (added later: a file
 * of an older export, without them, still imports, and a reader of the first columns finds
 * them where they were).
 */
export const exportColumns = [
  ...["url", "alias", "shortUrl", "title", "description", "tags", "createdAt", "expiresAt", "maxClicks", "clicks", "hasPassword", "status"] as const,
  ...linkOptionColumns,
] as const;

const iso = (value: Date | string | undefined) => (value === undefined ? "" : new Date(value).toISOString());

/** The header line of the CSV export. */
export const csvHeader = () => stringify([[...exportColumns]]);

/** Rows of the CSV export: a password link says only that it has one. */
export function csvRows(page: readonly ExportedLink[]): string {
  return stringify(
    page.map((l) => [
      l.originalUrl,
      l.code,
      l.shortUrl,
      l.title ?? "",
      l.description ?? "",
      l.tags.join(","),
      iso(l.createdAt),
      iso(l.expiresAt),
      l.maxClicks ?? "",
      l.clicks,
      l.hasPassword ? "yes" : "no",
      l.status,
      l.domain ?? "",
      l.redirectType,
      String(l.forwardQuery),
      iso(l.startsAt),
      l.fallbackUrl ?? "",
      String(l.allowIndexing),
      l.preview?.title ?? "",
      l.preview?.description ?? "",
      l.preview?.image ?? "",
      // With their ids, so an import keeps each rule's id (its clicks' label in analytics).
      l.rules.length === 0 ? "" : JSON.stringify(l.rules),
    ]),
  );
}

/** One JSON object per line, the list's brackets on lines of their own: a reader can take it line by line. */
export function jsonLines(page: readonly ExportedLink[], first: boolean): string {
  return page.map((l, i) => (first && i === 0 ? "" : ",\n") + JSON.stringify(jsonLink(l))).join("");
}

function jsonLink(l: ExportedLink): Record<string, unknown> {
  const { qrCodeUrl: _qr, updatedAt: _updated, ...kept } = l;
  return kept;
}
