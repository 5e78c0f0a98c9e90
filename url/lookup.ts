import { cachedLink, urlCache, type CachedLink } from "./cache";
import { db } from "./db";

/** A code's link: from this instance's cache, else from the database (then cached). */
export async function linkOf(code: string): Promise<CachedLink | undefined> {
  const cached = urlCache.get(code);
  if (cached !== undefined) return cached;
  const row = await db.queryRow<{ original_url: string }>`SELECT original_url FROM urls WHERE code = ${code}`;
  if (!row) return undefined;
  const link = cachedLink(row.original_url);
  urlCache.set(code, link);
  return link;
}
