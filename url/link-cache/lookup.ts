import { cachedLink, urlCache, type CachedLink, type LinkRules } from "./cache";
import { db } from "../db";
import { urlNotifications } from "../notifications/instance";
import { unavailableAnswer } from "../link-answers/unavailable";
import type { DisabledReason } from "../links/status";

/** What a lookup reads of a row; the timestamps as epoch milliseconds (cheaper to read than a Date). */
interface LinkRow {
  original_url: string;
  clicks: number;
  expires_ms: number | null;
  max_clicks: number | null;
  password_hash: string | null;
  deleted: boolean;
  disabled: boolean;
  disabled_reason: DisabledReason | null;
}

/** A code's link: from this instance's cache, else from the database (then cached). */
export async function linkOf(code: string): Promise<CachedLink | undefined> {
  const cached = urlCache.get(code);
  if (cached !== undefined) return cached;
  // The first lookup starts listening for evictions and waits for its first attempt, so it can be cached.
  await urlNotifications.start();
  const fill = urlCache.startFill(code);
  let link: CachedLink | undefined;
  try {
    const row = await db.queryRow<LinkRow>`
      SELECT original_url, clicks, (extract(epoch FROM expires_at) * 1000)::float8 AS expires_ms, max_clicks, password_hash,
        deleted_at IS NOT NULL AS deleted, disabled_at IS NOT NULL AS disabled, disabled_reason
      FROM urls WHERE code = ${code}`;
    if (row) link = cachedLink(row.original_url, rulesOf(row));
  } finally {
    urlCache.endFill(fill, link);
  }
  return link;
}

/**
 * The checks a row asks for; undefined for a plain link. A deleted or disabled link is
 * cached too, with its prepared answer, so asking for it again costs no query.
 */
function rulesOf(row: LinkRow): LinkRules | undefined {
  const gone = row.deleted ? unavailableAnswer("deleted") : row.disabled ? unavailableAnswer("disabled", row.disabled_reason) : null;
  if (gone === null && row.expires_ms === null && row.max_clicks === null && row.password_hash === null) return undefined;
  return {
    gone,
    expiresAt: row.expires_ms,
    maxClicks: row.max_clicks,
    passwordHash: row.password_hash,
    exhausted: row.max_clicks !== null && row.clicks >= row.max_clicks,
  };
}
