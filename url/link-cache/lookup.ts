import { cachedLink, urlCache, type CachedLink } from "./cache";
import { db } from "../db";
import { urlNotifications } from "../notifications/instance";

/** A code's link: from this instance's cache, else from the database (then cached). */
export async function linkOf(code: string): Promise<CachedLink | undefined> {
  const cached = urlCache.get(code);
  if (cached !== undefined) return cached;
  // The first lookup starts listening for evictions and waits for its first attempt, so it can be cached.
  await urlNotifications.start();
  const fill = urlCache.startFill(code);
  let link: CachedLink | undefined;
  try {
    const row = await db.queryRow<{ original_url: string }>`SELECT original_url FROM urls WHERE code = ${code}`;
    if (row) link = cachedLink(row.original_url);
  } finally {
    urlCache.endFill(fill, link);
  }
  return link;
}
