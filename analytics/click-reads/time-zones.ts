import { urlDb } from "../url-db";

/**
 * The time zones PostgreSQL knows, which does the bucketing: its names, not Node's,
 * decide what is valid. Read once, on the first request that names a zone other than UTC.
 */
let names: Promise<Set<string>> | undefined;

export async function knownTimeZone(tz: string): Promise<boolean> {
  if (tz === "UTC") return true;
  names ??= urlDb
    .queryAll<{ name: string }>`SELECT name FROM pg_timezone_names`
    .then((rows) => new Set(rows.map((r) => r.name)))
    .catch((err: unknown) => {
      names = undefined; // the next request asks again
      throw err;
    });
  return (await names).has(tz);
}
