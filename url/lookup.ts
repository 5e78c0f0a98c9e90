import { urlCache } from "./cache";
import { db } from "./db";

/** The original URL of a code: from this instance's cache, else from the database (then cached). */
export async function originalUrlOf(code: string): Promise<string | undefined> {
  const cached = urlCache.get(code);
  if (cached !== undefined) return cached;
  const row = await db.queryRow<{ original_url: string }>`SELECT original_url FROM urls WHERE code = ${code}`;
  if (!row) return undefined;
  urlCache.set(code, row.original_url);
  return row.original_url;
}
