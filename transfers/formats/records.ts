// What every source format's reader yields: one record of the file, or why it could not be
// read, with its line; and the two errors that stop a file or skip a row.

/** One record of a source file: its fields as the file has them, or why it could not be read. */
export interface SourceRecord {
  /** Its line in the file (1: the first line). */
  line: number;
  fields?: Record<string, unknown>;
  error?: string;
}

/** The file as a whole cannot be read as its format (no url column, not the export's layout): nothing of it is imported. */
export class FileError extends Error {}

/** One row cannot be read as a link (a column holds no number, no date): the row is reported, the others go on. */
export class RowError extends Error {}

/** A column's name as columns are matched: "Long URL", "long_url" and "longUrl" are one. */
export const columnKey = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, "");

/** A text field: absent when empty or missing. */
export function textOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = typeof value === "string" ? value.trim() : typeof value === "number" || typeof value === "boolean" ? String(value) : undefined;
  if (text === undefined) throw new RowError("a field holds a list or an object where text was expected");
  return text === "" ? undefined : text;
}

/** A whole number field (a number, or its digits as text): absent when empty. */
export function wholeNumberOf(value: unknown, field: string): number | undefined {
  const text = textOf(value);
  if (text === undefined) return undefined;
  if (!/^\d{1,15}$/.test(text)) throw new RowError(`${field} must be a whole number, got "${text.slice(0, 40)}"`);
  return Number(text);
}

/** A list of tag names: an array, or text with `separator` between names. */
export function tagsOf(value: unknown, separator: string): string[] | undefined {
  if (Array.isArray(value)) {
    const names = value.map((v) => textOf(v)).filter((v): v is string => v !== undefined);
    return names.length === 0 ? undefined : names;
  }
  const text = textOf(value);
  if (text === undefined) return undefined;
  const names = text.split(separator).map((n) => n.trim()).filter((n) => n !== "");
  return names.length === 0 ? undefined : names;
}

/** A date and time field, as ISO 8601 (the links service checks its meaning); absent when empty. */
export function instantOf(value: unknown, field: string): string | undefined {
  const text = textOf(value);
  if (text === undefined) return undefined;
  // "2020-01-02 03:04:05" (YOURLS, SQL dumps): UTC; "+0000" offsets (Bitly): as "+00:00".
  let iso = text.replace(/^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}(:\d{2}(\.\d+)?)?)$/, "$1T$2Z");
  iso = iso.replace(/([+-]\d{2})(\d{2})$/, "$1:$2");
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RowError(`${field} must be a date and time such as 2030-01-31T12:00:00Z, got "${text.slice(0, 40)}"`);
  return date.toISOString();
}

/** A yes/no field: a JSON boolean, or true/false (yes/no) as text in any case; absent when empty. */
export function flagOf(value: unknown, field: string): boolean | undefined {
  if (typeof value === "boolean") return value;
  const text = textOf(value)?.toLowerCase();
  if (text === undefined) return undefined;
  if (text === "true" || text === "yes") return true;
  if (text === "false" || text === "no") return false;
  throw new RowError(`${field} must be true or false, got "${text.slice(0, 40)}"`);
}
