import { parse, type CsvError } from "csv-parse";
import { once } from "node:events";
import { columnKey, FileError, type SourceRecord } from "./records";

/**
 * The records of a CSV file with a header line, read as its bytes arrive: each a record of
 * its columns by columnKey, or, for a line that is not well-formed CSV (an unclosed quote,
 * more fields than columns), its error. A header without the `required` columns (keys) is
 * a FileError.
 */
export async function* csvRecords(chunks: AsyncIterable<Buffer>, required: readonly string[]): AsyncGenerator<SourceRecord> {
  const skipped: SourceRecord[] = [];
  let headerError: FileError | undefined;
  const parser = parse({
    bom: true,
    info: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    // A line without its last, empty fields (as hand-made files have them) reads them as empty; more fields than columns is an error.
    relax_column_count_less: true,
    columns: (header: string[]) => {
      const keys = header.map((name) => columnKey(String(name)));
      const missing = required.filter((key) => !keys.includes(key));
      if (missing.length > 0) {
        headerError = new FileError(`the file's first line must name its columns, among them ${missing.join(", ")}; it names ${header.slice(0, 12).join(", ") || "none"}`);
        throw headerError;
      }
      return keys;
    },
  });
  parser.on("skip", (err: CsvError) => skipped.push({ line: lineOf(err), error: `not a well-formed CSV line: ${err.message}` }));
  const feeding = feed(chunks, parser);
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, unknown>; info: { lines: number } }>) {
      // In line order, however the parser's events and records interleave: a resumed job counts rows the same way.
      while (skipped.length > 0 && skipped[0]!.line < info.lines) yield skipped.shift()!;
      yield { line: info.lines, fields: record };
    }
  } catch (err) {
    if (headerError !== undefined) throw headerError;
    if (err instanceof FileError) throw err;
    throw new FileError(`the file is not CSV: ${(err as Error).message}`);
  }
  while (skipped.length > 0) yield skipped.shift()!;
  await feeding;
}

/** Writes the chunks into the parser with back-pressure; a failing source fails the parser. */
async function feed(chunks: AsyncIterable<Buffer>, parser: ReturnType<typeof parse>): Promise<void> {
  try {
    for await (const chunk of chunks) {
      if (parser.destroyed) return;
      if (!parser.write(chunk)) await Promise.race([once(parser, "drain"), once(parser, "close")]);
    }
    parser.end();
  } catch (err) {
    parser.destroy(err as Error);
  }
}

function lineOf(err: CsvError): number {
  const lines = (err as CsvError & { lines?: number }).lines;
  return typeof lines === "number" ? lines : 0;
}
