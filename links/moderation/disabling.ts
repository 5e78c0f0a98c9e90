import { APIError } from "encore.dev/api";
import type { Transaction } from "encore.dev/storage/sqldb";
import type { DisabledReason } from "../../link-rules/status";
import { db } from "../db";

// What an administrator's actions do to links (the moderation service asks through
// links/moderation.ts). A link carries one reason at a time: 'abuse' (the link itself) is
// set and cleared only by an administrator; 'host' and 'account' come and go with a ban
// and a disabled account. When a cause ends, the link is enabled only if no other holds,
// else it keeps the other as its reason (migration 9's link_standing_disable).
//
// Every change sets disabled_at (to now, or null) and disabled_reason, which evicts the link
// from every instance's cache at once (the trigger of migrations 8 and 11): a lookup answers
// the new status.

/**
 * Runs `work` in a transaction that holds the url database's moderation lock, and commits.
 * Changes of bans, disabled accounts and the links they disable take it in turn, so that
 * one weighing a link's causes never misses another's that commits meanwhile.
 */
export async function moderating<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
  await using tx = await db.begin();
  await tx.exec`SELECT pg_advisory_xact_lock(hashtext('url moderation'))`;
  const result = await work(tx);
  await tx.commit();
  return result;
}

/**
 * Disables a link for abuse, whatever its state (a deleted link: 404). Resolves with its
 * code as stored, and how many links stopped redirecting (0 when it was disabled already).
 */
export function disableLink(code: string): Promise<{ code: string; disabled: number }> {
  return moderating(async (tx) => {
    const link = await tx.queryRow<{ code: string; disabled: boolean }>`
      SELECT code, disabled_at IS NOT NULL AS disabled FROM urls WHERE lower(code) = lower(${code}) AND deleted_at IS NULL`;
    if (!link) throw linkNotFound(code);
    await tx.exec`UPDATE urls SET disabled_at = now(), disabled_reason = 'abuse' WHERE code = ${link.code}`;
    return { code: link.code, disabled: link.disabled ? 0 : 1 };
  });
}

/**
 * Ends a link's disabling for abuse. It redirects again unless its host is banned or its
 * owner's account disabled, which it then keeps as its reason. A link disabled for one
 * of those alone is refused (400 failed_precondition): unban the host, or enable the
 * account. A link that is not disabled stays as it is. Resolves with its code as stored,
 * and how many links redirect again (0 or 1).
 */
export function enableLink(code: string): Promise<{ code: string; enabled: number }> {
  return moderating(async (tx) => {
    const link = await tx.queryRow<{ code: string; disabled_reason: DisabledReason | null }>`
      SELECT code, disabled_reason FROM urls WHERE lower(code) = lower(${code}) AND deleted_at IS NULL`;
    if (!link) throw linkNotFound(code);
    if (link.disabled_reason === "host") {
      throw APIError.failedPrecondition(`link ${link.code} is disabled because its target host is banned: unban the host to enable it`);
    }
    if (link.disabled_reason === "account") {
      throw APIError.failedPrecondition(`link ${link.code} is disabled with its owner's account: enable the account to enable it`);
    }
    const enabled = link.disabled_reason === null ? 0 : await liftDisabling(tx, "abuse", { code: link.code });
    return { code: link.code, enabled };
  });
}

/** Which links to lift a disabling from: one of these. */
export type Selection = { code: string } | { host: string } | { userID: string };

/**
 * Ends the disabling for `reason` of the selected links: each redirects again, or keeps
 * disabled for the cause that still holds, as of `tx` (a moderating transaction).
 * Resolves with how many redirect again.
 */
export async function liftDisabling(tx: Transaction, reason: DisabledReason, selection: Selection): Promise<number> {
  const code = "code" in selection ? selection.code : null;
  const host = "host" in selection ? selection.host : null;
  const userID = "userID" in selection ? selection.userID : null;
  const rows = await tx.queryAll<{ enabled: boolean }>`
    UPDATE urls u SET disabled_reason = s.reason, disabled_at = CASE WHEN s.reason IS NULL THEN NULL ELSE now() END
    FROM (
      SELECT id, link_standing_disable(original_url, created_by) AS reason FROM urls
      WHERE disabled_at IS NOT NULL AND disabled_reason = ${reason} AND deleted_at IS NULL
        AND (${code}::text IS NULL OR code = ${code})
        AND (${host}::text IS NULL OR host_within(link_host(original_url), ${host}))
        AND (${userID}::text IS NULL OR created_by = ${userID})) s
    WHERE u.id = s.id
    RETURNING s.reason IS NULL AS enabled`;
  return rows.filter((r) => r.enabled).length;
}

function linkNotFound(code: string): APIError {
  return APIError.notFound(`no link with code ${code}`);
}
