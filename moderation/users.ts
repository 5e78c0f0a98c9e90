import { api, APIError, type Query } from "encore.dev/api";
import type { Max, MaxLen, Min } from "encore.dev/validate";
import { links, users } from "~encore/clients";
import { isAdminEmail } from "../access/admin-emails";
import { requireAdmin } from "./audit/admin";

export interface ListAccountsRequest {
  /** Only accounts whose email or name contains this text, in any case (`%` and `_` plain). */
  q?: Query<string & MaxLen<254>>;
  /** active, disabled, or all (the default). */
  status?: "active" | "disabled" | "all";
  /** Accounts per page, 1 to 100; default 20. */
  limit?: Query<number & Min<1> & Max<100>>;
  /** Where to continue: the `nextCursor` of the previous page. */
  cursor?: Query<string>;
}

export interface AccountForAdmin {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
  /** When it was disabled; left out while it is enabled. */
  disabledAt?: Date;
  /** Whether its email is in ADMIN_EMAILS. */
  admin: boolean;
  /** The links it made, deleted ones too, counted up to `linksCap` (then "that many or more"). */
  links: number;
}

export interface ListAccountsResponse {
  /** Newest first. */
  users: AccountForAdmin[];
  /** Counts of links stop here. */
  linksCap: number;
  nextCursor?: string;
}

const defaultLimit = 20;

/** Every account, newest first, searched by email or name, active or disabled. Admin only (else 403). */
export const listAccounts = api(
  { expose: true, auth: true, method: "GET", path: "/admin/users" },
  async ({ q, status = "all", limit = defaultLimit, cursor }: ListAccountsRequest): Promise<ListAccountsResponse> => {
    requireAdmin();
    if (!Number.isInteger(limit)) throw APIError.invalidArgument(`limit must be a whole number, got ${limit}`);
    const found = await users.searchAccountsForAdmin({ q, status, limit, cursor });
    const { counts, cap } = await links.linkCountsOf({ userIds: found.accounts.map((account) => account.id) });
    const linksOf = new Map(counts.map((count) => [count.userId, count.links]));
    const listed = found.accounts.map((account) => ({ ...account, admin: isAdminEmail(account.email), links: linksOf.get(account.id) ?? 0 }));
    return found.nextCursor === undefined ? { users: listed, linksCap: cap } : { users: listed, linksCap: cap, nextCursor: found.nextCursor };
  },
);
