import { api, APIError, type Query } from "encore.dev/api";
import type { Max, MaxLen, Min } from "encore.dev/validate";
import { links, users } from "~encore/clients";
import type { DisabledReason, LinkStatus } from "../link-rules/status";
import { requireAdmin } from "./audit/admin";

export interface ListAllLinksRequest {
  /** Only links whose code, URL or title contains this text, in any case (`%` and `_` plain). */
  q?: Query<string & MaxLen<2048>>;
  /** Only links to this host or its subdomains. */
  host?: Query<string & MaxLen<253>>;
  /** Only links made by this account: its user id, or its email in any case. */
  creator?: Query<string & MaxLen<254>>;
  /** all (the default, deleted links too), active, inactive (scheduled, expired, exhausted or disabled), disabled, or deleted. */
  status?: "all" | "active" | "inactive" | "disabled" | "deleted";
  /** Only links with open reports. */
  reported?: Query<boolean>;
  /** newest (the default), clicks (most clicked first), or reports (most open reports first; only reported links). */
  sort?: "newest" | "clicks" | "reports";
  /** Links per page, 1 to 100; default 20. */
  limit?: Query<number & Min<1> & Max<100>>;
  /** Where to continue: the `nextCursor` of the previous page, with the same sort. */
  cursor?: Query<string>;
}

/** A link as an administrator sees it: what its owner sees (GET /links/:code), and more. */
export interface LinkForAdmin {
  code: string;
  shortUrl: string;
  originalUrl: string;
  title?: string;
  description?: string;
  clicks: number;
  createdAt: Date;
  updatedAt?: Date;
  expiresAt?: Date;
  maxClicks?: number;
  hasPassword: boolean;
  status: LinkStatus;
  qrCodeUrl?: string;
  /** Why it is disabled, while it is: abuse (the link itself), host (a banned host), account (its creator disabled). */
  disabledReason?: DisabledReason;
  /** The user id of who made it; left out for an anonymous link. */
  createdBy?: string;
  /** The creator's current email; left out for an anonymous link or a deleted account. */
  creatorEmail?: string;
  /** The workspace it belongs to; left out for an anonymous link. */
  workspaceId?: string;
  /** Reports about it not yet resolved. */
  openReports: number;
}

export interface ListAllLinksResponse {
  links: LinkForAdmin[];
  nextCursor?: string;
}

const defaultLimit = 20;

/**
 * Every link of the instance, anonymous ones and every workspace's, searched, filtered by
 * target host, creator, status and open reports, and sorted, a page at a time. Admin only (else 403).
 */
export const listAllLinks = api(
  { expose: true, auth: true, method: "GET", path: "/admin/links" },
  async ({ q, host, creator, status, reported, sort, limit = defaultLimit, cursor }: ListAllLinksRequest): Promise<ListAllLinksResponse> => {
    requireAdmin();
    if (!Number.isInteger(limit)) throw APIError.invalidArgument(`limit must be a whole number, got ${limit}`);
    const creatorId = creator === undefined || creator.trim() === "" ? undefined : await creatorIdOf(creator.trim());
    if (creatorId === null) return { links: [] };
    const page = await links.adminLinks({ q, host, creator: creatorId, status, reported, sort, limit, cursor });
    const creators = [...new Set(page.links.flatMap((link) => (link.createdBy === undefined ? [] : [link.createdBy])))];
    const { accounts } = creators.length === 0 ? { accounts: [] } : await users.accountEmails({ ids: creators });
    const emails = new Map(accounts.map((account) => [account.id, account.email]));
    const listed = page.links.map((link) => {
      const email = link.createdBy === undefined ? undefined : emails.get(link.createdBy);
      return email === undefined ? link : { ...link, creatorEmail: email };
    });
    return page.nextCursor === undefined ? { links: listed } : { links: listed, nextCursor: page.nextCursor };
  },
);

/** A creator given as an email is that account's id (null: no account has it); anything else is taken as a user id. */
async function creatorIdOf(creator: string): Promise<string | null> {
  if (!creator.includes("@")) return creator.toLowerCase();
  const { id } = await users.accountIdByEmail({ email: creator });
  return id ?? null;
}
