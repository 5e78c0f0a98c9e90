import type { ImportRow } from "../../link-rules/import-rows";
import { csvRecords } from "./csv-records";
import { jsonRecords } from "./json-records";
import { bitlyRow, kuttRow, shlinkRow, yourlsRow } from "./other-shorteners";
import type { SourceRecord } from "./records";
import { csvRow, jsonRow } from "./this-app";

/** The files an import reads: this app's CSV or JSON export (the CSV template too), or another shortener's export. */
export type ImportFormat = "csv" | "json" | "kutt" | "shlink" | "yourls" | "bitly";

export const importFormats: readonly ImportFormat[] = Object.freeze(["csv", "json", "kutt", "shlink", "yourls", "bitly"]);

interface Format {
  /** The file's records, read as its bytes arrive. */
  readonly records: (chunks: AsyncIterable<Buffer>) => AsyncGenerator<SourceRecord>;
  /** A record as a link to store; throws RowError for a field it cannot read. */
  readonly row: (fields: Record<string, unknown>, line: number) => ImportRow;
}

const formats: Readonly<Record<ImportFormat, Format>> = {
  csv: { records: (c) => csvRecords(c, ["url"]), row: csvRow },
  json: { records: (c) => jsonRecords(c, []), row: jsonRow },
  kutt: { records: (c) => jsonRecords(c, ["data"]), row: kuttRow },
  shlink: { records: (c) => csvRecords(c, ["longurl"]), row: shlinkRow },
  yourls: { records: (c) => csvRecords(c, ["keyword", "url"]), row: yourlsRow },
  bitly: { records: (c) => jsonRecords(c, ["links"]), row: bitlyRow },
};

export const formatOf = (format: ImportFormat): Format => formats[format];

export function isImportFormat(value: string): value is ImportFormat {
  return (importFormats as readonly string[]).includes(value);
}
