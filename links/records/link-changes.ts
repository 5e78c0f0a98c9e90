import { APIError } from "encore.dev/api";
import { linkLimits } from "../../limits/links";
import { passwords } from "../../passwords/passwords";
import { db } from "../db";
import { checkTarget } from "../shortening/target";
import { evictNow } from "./cache-eviction";
import { recordLinkEvent } from "../event-outbox/record";
import { replaceLinkTags } from "../tagging/link-tags";
import { checkTagNames, tagKey } from "../tagging/names";
import { ensureTags, lockWorkspaceTags } from "../tagging/tag-rows";
import { checkDescription, checkExpiresAt, checkFlag, checkMaxClicks, checkPassword, checkRedirectType, checkStartsAt, checkTitle, type RedirectType } from "./options";

/** What PATCH /links/:code may change: a field left out stays, null clears it. */
export interface LinkChangeFields {
  /** The new target: absolute http or https, as for POST /shorten. */
  url?: string;
  /** A future instant, or null: never expires. */
  expiresAt?: Date | null;
  /** A whole number from 1 to 1e9, or null: no click budget. */
  maxClicks?: number | null;
  /** 1 to 128 characters (stored hashed), or null: no password. */
  password?: string | null;
  /** At most 200 characters, or null. */
  title?: string | null;
  /** At most 1000 characters, or null. */
  description?: string | null;
  /**
   * The link's tags, replacing those it has ([] takes them all off): names of its workspace's
   * tags, in any case, at most 20; a name the workspace has no tag by becomes a new tag.
   * Tags are not what the link does: a change of them alone leaves updatedAt as it was.
   */
  tags?: string[];
  /** 301, 302, 307 or 308; null: back to 302. */
  redirectType?: RedirectType | null;
  /** Whether the short link's query string is added to the target; null: back to true. */
  forwardQuery?: boolean | null;
  /** Any instant (one past starts the link at once), or null: no start. */
  startsAt?: Date | null;
  /** http(s), checked as `url` is, or null: the link's 404 once expired or out of clicks. */
  fallbackUrl?: string | null;
  /** Whether search engines may index the link; null: back to false. */
  allowIndexing?: boolean | null;
}

const changeable = [
  "url", "expiresAt", "maxClicks", "password", "title", "description", "tags",
  "redirectType", "forwardQuery", "startsAt", "fallbackUrl", "allowIndexing",
] as const;

/**
 * The fields checked as creating a link checks them (the URL normalised), so an edit can
 * set nothing a new link could not have. 400 invalid_argument when nothing is to change.
 */
export function checkChanges(fields: LinkChangeFields, ownBaseUrl: string): LinkChangeFields {
  if (changeable.every((name) => fields[name] === undefined)) {
    throw APIError.invalidArgument(`nothing to change: send at least one of ${changeable.join(", ")}`);
  }
  const orNull = <T>(value: T | null | undefined, check: (v: T) => T) => (value === undefined || value === null ? value : check(value));
  return {
    url: fields.url === undefined ? undefined : checkTarget(fields.url, ownBaseUrl, linkLimits.config.deniedHosts),
    expiresAt: orNull(fields.expiresAt, (v) => checkExpiresAt(v)),
    maxClicks: orNull(fields.maxClicks, checkMaxClicks),
    password: orNull(fields.password, checkPassword),
    title: orNull(fields.title, checkTitle),
    description: orNull(fields.description, checkDescription),
    tags: fields.tags === undefined ? undefined : checkTagNames(fields.tags),
    redirectType: orNull(fields.redirectType, checkRedirectType),
    forwardQuery: orNull(fields.forwardQuery, (v) => checkFlag("forwardQuery", v)),
    startsAt: orNull(fields.startsAt, (v) => checkStartsAt(v, fields.expiresAt)),
    fallbackUrl: orNull(fields.fallbackUrl, (v) => checkTarget(v, ownBaseUrl, linkLimits.config.deniedHosts, "fallbackUrl")),
    allowIndexing: orNull(fields.allowIndexing, (v) => checkFlag("allowIndexing", v)),
  };
}

/**
 * Applies checked changes to the link of `workspaceId`, unless it is deleted or disabled meanwhile;
 * resolves false when no row was changed (the caller finds out why). A change of the URL,
 * expiry, click budget, password or how it redirects fires the urls eviction trigger (url
 * migrations 8 and 17), so
 * every instance drops the code from its cache when this commits.
 */
export async function applyChanges(code: string, workspaceId: string, changes: LinkChangeFields): Promise<boolean> {
  // Hashed before the UPDATE, so no row stays locked for scrypt's time; tags found or made
  // before it too (ensureTags has a transaction of its own).
  const passwordHash = typeof changes.password === "string" ? await passwords.hash(changes.password) : changes.password;
  const tagIds = changes.tags === undefined ? undefined : await tagIdsOf(workspaceId, changes.tags);
  const set = (value: unknown) => value !== undefined;
  const linkChanged = changeable.some((name) => name !== "tags" && set(changes[name]));
  await using tx = await db.begin();
  const row = linkChanged
    ? await tx.queryRow<{ id: number }>`
        UPDATE urls SET
          original_url = CASE WHEN ${set(changes.url)} THEN ${changes.url ?? null}::text ELSE original_url END,
          expires_at = CASE WHEN ${set(changes.expiresAt)} THEN ${changes.expiresAt ?? null}::timestamptz ELSE expires_at END,
          max_clicks = CASE WHEN ${set(changes.maxClicks)} THEN ${changes.maxClicks ?? null}::int ELSE max_clicks END,
          password_hash = CASE WHEN ${set(passwordHash)} THEN ${passwordHash ?? null}::text ELSE password_hash END,
          title = CASE WHEN ${set(changes.title)} THEN ${changes.title ?? null}::text ELSE title END,
          description = CASE WHEN ${set(changes.description)} THEN ${changes.description ?? null}::text ELSE description END,
          redirect_type = CASE WHEN ${set(changes.redirectType)} THEN ${changes.redirectType ?? 302}::smallint ELSE redirect_type END,
          forward_query = CASE WHEN ${set(changes.forwardQuery)} THEN ${changes.forwardQuery ?? true}::bool ELSE forward_query END,
          starts_at = CASE WHEN ${set(changes.startsAt)} THEN ${changes.startsAt ?? null}::timestamptz ELSE starts_at END,
          fallback_url = CASE WHEN ${set(changes.fallbackUrl)} THEN ${changes.fallbackUrl ?? null}::text ELSE fallback_url END,
          allow_indexing = CASE WHEN ${set(changes.allowIndexing)} THEN ${changes.allowIndexing ?? false}::bool ELSE allow_indexing END,
          updated_at = now()
        WHERE code = ${code} AND workspace_id = ${workspaceId} AND deleted_at IS NULL AND disabled_at IS NULL
        RETURNING id`
    : // Tags alone: the row is only held (key share: no conflict with the click flush) against a delete meanwhile.
      await tx.queryRow<{ id: number }>`
        SELECT id FROM urls WHERE code = ${code} AND workspace_id = ${workspaceId} AND deleted_at IS NULL AND disabled_at IS NULL
        FOR KEY SHARE`;
  if (row === null) return false; // rolled back as the transaction is disposed
  if (tagIds !== undefined) {
    // With the workspace's tag writes held back, so a bulk tagging cannot take the link past its limit meanwhile.
    await lockWorkspaceTags(tx, workspaceId);
    await replaceLinkTags(tx, row.id, tagIds);
  }
  await recordLinkEvent(tx, "link.updated", row.id);
  await tx.commit();
  // The url service answers the change from its very next request: the trigger's notification
  // reaches its cache a moment after the commit, after this request may have been answered.
  if (linkChanged) await evictNow(code);
  return true;
}

async function tagIdsOf(workspaceId: string, names: readonly string[]): Promise<number[]> {
  const ids = await ensureTags(workspaceId, names);
  return names.map((name) => ids.get(tagKey(name))!);
}
