import { APIError } from "encore.dev/api";
import { cachedLink, urlCache, type CachedLink, type Fill, type LinkRules } from "./cache";
import { db } from "../db";
import { urlConfig } from "../config/url-config";
import { lookupsShed } from "../metrics";
import { urlNotifications } from "./notifications";
import { unavailableAnswer } from "../answer-pages/unavailable";
import type { DisabledReason } from "../../link-rules/status";
import { defaultRedirect, type RedirectHow } from "./answer-headers";
import { compileTargeting } from "./targeting-rules";
import { previewCardOf } from "../answer-pages/preview-card";
import { shortUrlOf } from "../../link-rules/short-url";

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
  domain: string | null;
  redirect_type: number;
  forward_query: boolean;
  starts_ms: number | null;
  fallback_url: string | null;
  allow_indexing: boolean;
  redirect_rules: unknown;
  preview_title: string | null;
  preview_description: string | null;
  preview_image: string | null;
}

/**
 * The lookup's one query, $1 the code. A change of any column it reads must evict the code
 * from every instance's cache, by the urls eviction trigger (url migrations 6, 8, 11 and 17),
 * or instances answer the old row: trigger-columns.test.ts asks PostgreSQL which columns
 * these are and checks each. All but clicks, which the click flush sets alone, often: a
 * budget is kept by the database (a budgeted click is counted by a conditional UPDATE),
 * and a cached one is only ever found spent (LinkRules.exhausted).
 */
export const lookupQuery = `
  SELECT original_url, clicks, (extract(epoch FROM expires_at) * 1000)::float8 AS expires_ms, max_clicks, password_hash,
    deleted_at IS NOT NULL AS deleted, disabled_at IS NOT NULL AS disabled, disabled_reason,
    redirect_type, forward_query, (extract(epoch FROM starts_at) * 1000)::float8 AS starts_ms, fallback_url, allow_indexing, redirect_rules,
    preview_title, preview_description, preview_image, domain
  FROM urls WHERE code = $1`;

/** A read of one code's row under way. */
interface Read {
  readonly fill: Fill;
  readonly link: Promise<CachedLink | undefined>;
}

/**
 * Reads under way, by code. A burst of lookups of a code not cached yet (a link just
 * shared) would otherwise send one query each, all queueing for the pool's few
 * connections until the last ones time out as 503s; instead they share one read.
 */
const reads = new Map<string, Read>();
let readsInProgress = 0;

/**
 * A code's link: from this instance's cache, else from the database (then cached).
 * Throws 503 `unavailable` with `retryAfterSeconds: 1`, counted in url_lookups_shed,
 * when LOOKUP_READS_AT_ONCE reads of other codes are under way already: past that, the
 * reads would wait for a connection longer than the clients do, so this one is refused
 * at once, and the pool stays free for the reads it can finish.
 */
export async function linkOf(code: string): Promise<CachedLink | undefined> {
  const cached = urlCache.get(code);
  if (cached !== undefined) return cached;
  // The first lookup starts listening for evictions and waits for its first attempt, so it can be cached.
  await urlNotifications.start();
  const under = reads.get(code);
  // A read overtaken by an eviction (the row changed after it began) is not joined: its answer may be the old one.
  if (under !== undefined && under.fill.keepable) return under.link;
  if (readsInProgress >= urlConfig.lookupReadsAtOnce) {
    lookupsShed.increment();
    throw APIError.unavailable("too many links are being looked up at once; try again in a second").withDetails({ retryAfterSeconds: 1 });
  }
  const fill = urlCache.startFill(code);
  const read: Read = { fill, link: readLink(fill) };
  reads.set(code, read);
  return read.link;
}

async function readLink(fill: Fill): Promise<CachedLink | undefined> {
  readsInProgress++;
  let link: CachedLink | undefined;
  try {
    const row = await db.rawQueryRow<LinkRow>(lookupQuery, fill.code);
    if (row) {
      const how = howOf(row);
      const preview = previewCardOf(row.preview_title, row.preview_description, row.preview_image, shortUrlOf(fill.code, row.domain));
      link = cachedLink(row.original_url, rulesOf(row, how), how, preview, row.domain);
    }
  } finally {
    readsInProgress--;
    urlCache.endFill(fill, link);
    if (reads.get(fill.code)?.fill === fill) reads.delete(fill.code);
  }
  return link;
}

/** The row's redirect options; the defaults' shared object for most links. */
function howOf(row: LinkRow): RedirectHow {
  const { redirect_type: redirectType, forward_query: forwardQuery, allow_indexing: allowIndexing } = row;
  if (redirectType === defaultRedirect.redirectType && forwardQuery === defaultRedirect.forwardQuery && !allowIndexing) return defaultRedirect;
  return { redirectType, forwardQuery, noindex: !allowIndexing };
}

/**
 * The checks a row asks for; undefined for a plain link. A deleted or disabled link is
 * cached too, with its prepared answer, so asking for it again costs no query.
 */
function rulesOf(row: LinkRow, how: RedirectHow): LinkRules | undefined {
  const gone = row.deleted ? unavailableAnswer("deleted") : row.disabled ? unavailableAnswer("disabled", row.disabled_reason) : null;
  const targeting = compileTargeting(row.redirect_rules, (url) => cachedLink(url, undefined, how));
  if (gone === null && row.expires_ms === null && row.max_clicks === null && row.password_hash === null && row.starts_ms === null && targeting === null) return undefined;
  return {
    targeting,
    gone,
    expiresAt: row.expires_ms,
    maxClicks: row.max_clicks,
    passwordHash: row.password_hash,
    startsAt: row.starts_ms,
    // Only an end date or a click budget ever sends a visitor there.
    fallback: row.fallback_url !== null && (row.expires_ms !== null || row.max_clicks !== null) ? cachedLink(row.fallback_url, undefined, how) : null,
    exhausted: row.max_clicks !== null && row.clicks >= row.max_clicks,
  };
}
