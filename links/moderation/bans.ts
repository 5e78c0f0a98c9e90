import { APIError } from "encore.dev/api";
import { hostOf } from "../../limits/links";
import { db } from "../db";
import { liftDisabling, moderating } from "./disabling";

/** A banned target host, as GET /admin/hosts lists it. */
export interface Ban {
  /** Banned with its subdomains. */
  host: string;
  reason?: string;
  bannedAt: Date;
  /** The administrator's user id. */
  bannedBy: string;
}

/**
 * The host to ban, as hosts are compared (limits/links.ts: case, IDN, a trailing dot);
 * 400 invalid_argument for anything more than a host, and for a top-level domain alone,
 * whose ban would disable every link under it.
 */
export function hostToBan(input: string): string {
  const host = hostOf(input.trim());
  if (host === null || host === "") {
    throw APIError.invalidArgument(`host must be a host name such as evil.example (its subdomains are included), got "${input}"`);
  }
  if (!host.includes(".") && !host.startsWith("[")) {
    throw APIError.invalidArgument(`host must not be a top-level domain alone, got "${host}": its ban would disable every link under it`);
  }
  return host;
}

/** Bans `host` (normalised) and disables its links and its subdomains'; resolves with how many. A ban already in place: 409. */
export function ban(host: string, reason: string | undefined, by: string): Promise<number> {
  return moderating(async (tx) => {
    const added = await tx.queryRow`
      INSERT INTO banned_hosts (host, reason, banned_by) VALUES (${host}, ${reason ?? null}, ${by})
      ON CONFLICT (host) DO NOTHING RETURNING host`;
    if (!added) throw APIError.alreadyExists(`${host} is already banned`);
    // One statement over every link: the host is read from the URL, so no index narrows it (bans are rare).
    const disabled = await tx.queryAll`
      UPDATE urls SET disabled_at = now(), disabled_reason = 'host'
      WHERE disabled_at IS NULL AND deleted_at IS NULL AND host_within(link_host(original_url), ${host})
      RETURNING 1`;
    return disabled.length;
  });
}

/** Lifts the ban of `host` (normalised): the links it disabled redirect again, unless another cause holds; resolves with how many. Not banned: 404. */
export function unban(host: string): Promise<number> {
  return moderating(async (tx) => {
    const removed = await tx.queryRow`DELETE FROM banned_hosts WHERE host = ${host} RETURNING host`;
    if (!removed) throw APIError.notFound(`${host} is not banned`);
    return liftDisabling(tx, "host", { host });
  });
}

/** Every banned host, newest ban first. */
export async function bans(): Promise<Ban[]> {
  const rows = await db.queryAll<{ host: string; reason: string | null; banned_at: Date; banned_by: string }>`
    SELECT host, reason, banned_at, banned_by FROM banned_hosts ORDER BY banned_at DESC, host`;
  return rows.map((r) => ({ host: r.host, ...(r.reason !== null && { reason: r.reason }), bannedAt: r.banned_at, bannedBy: r.banned_by }));
}
