import { api } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { links } from "~encore/clients";
import { requireAdmin } from "./audit/admin";
import { record, type ActionResult } from "./audit/log";

export interface BannedHost {
  /** Banned with its subdomains. */
  host: string;
  reason?: string;
  bannedAt: Date;
  /** The administrator's user id. */
  bannedBy: string;
}

export interface BannedHostsResponse {
  /** Newest ban first. */
  hosts: BannedHost[];
}

/** The banned target hosts. Admin only (else 403). */
export const listBannedHosts = api(
  { expose: true, auth: true, method: "GET", path: "/admin/hosts" },
  async (): Promise<BannedHostsResponse> => {
    requireAdmin();
    return links.bannedHostList();
  },
);

export interface BanHostRequest {
  /** A host name (evil.example); its subdomains are included. Case, IDN and a trailing dot are normalised. */
  host: string & MaxLen<253>;
  /** Why, kept with the ban and in the audit log. */
  reason?: string & MaxLen<500>;
}

/**
 * Bans a target host and its subdomains: new links to them are refused on every
 * instance at once (400 invalid_argument "links to <host> are not allowed"), existing
 * ones disabled (GET /:code: 404 "link disabled for abuse"). The action's target is the
 * host as normalised. Not a host name, or a top-level domain alone: 400; banned
 * already: 409 already_exists. Admin only (else 403).
 */
export const banHost = api(
  { expose: true, auth: true, method: "POST", path: "/admin/hosts" },
  async ({ host, reason }: BanHostRequest): Promise<ActionResult> => {
    const admin = requireAdmin();
    const done = await links.banHost({ host, reason, bannedBy: admin.userID });
    return { action: await record(admin, "ban_host", done.host, reason), links: done.links };
  },
);

export interface UnbanHostRequest {
  host: string;
  /** Why, for the audit log. */
  reason?: string & MaxLen<500>;
}

/**
 * Lifts a ban: new links to the host are allowed again, and the links the ban disabled
 * redirect again, unless another cause holds (disabled for abuse, or with their
 * account). Not banned: 404. Admin only (else 403).
 */
export const unbanHost = api(
  { expose: true, auth: true, method: "DELETE", path: "/admin/hosts/:host" },
  async ({ host, reason }: UnbanHostRequest): Promise<ActionResult> => {
    const admin = requireAdmin();
    const done = await links.unbanHost({ host });
    return { action: await record(admin, "unban_host", done.host, reason), links: done.links };
  },
);
