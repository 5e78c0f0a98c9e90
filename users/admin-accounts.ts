import { api, APIError } from "encore.dev/api";
import type { Max, MaxLen, Min } from "encore.dev/validate";
import { accountByEmail, emailsOf, searchAccounts, type AccountStatusFilter, type AccountSummary } from "./accounts/account-search";

// Every account, for the moderation service's administrators (GET /admin/users, the
// creators of GET /admin/links). Internal: the moderation service checks its caller is an
// administrator; no client reaches these.

export interface AccountSearchRequest {
  /** A substring of the email or the name, in any case. */
  q?: string & MaxLen<254>;
  /** active, disabled, or all (the default). */
  status?: AccountStatusFilter;
  limit: number & Min<1> & Max<100>;
  cursor?: string;
}

export interface AccountSearchResponse {
  /** Newest first. */
  accounts: AccountSummary[];
  nextCursor?: string;
}

/** A page of accounts, newest first, searched by email or name. */
export const searchAccountsForAdmin = api(
  { expose: false, method: "POST", path: "/internal/users/search" },
  async ({ q, status = "all", limit, cursor }: AccountSearchRequest): Promise<AccountSearchResponse> => {
    if (!Number.isInteger(limit)) throw APIError.invalidArgument(`limit must be a whole number, got ${limit}`);
    const { accounts, last } = await searchAccounts({ q: q === "" ? undefined : q, status, rows: limit + 1, cursor });
    const page = accounts.slice(0, limit);
    return last === undefined ? { accounts: page } : { accounts: page, nextCursor: last };
  },
);

export interface AccountEmailsRequest {
  /** At most 100 user ids; ids of no account are left out of the answer. */
  ids: string[];
}

export interface AccountEmailsResponse {
  accounts: Array<{ id: string; email: string }>;
}

/** The current emails of these accounts. */
export const accountEmails = api(
  { expose: false, method: "POST", path: "/internal/users/emails" },
  async ({ ids }: AccountEmailsRequest): Promise<AccountEmailsResponse> => {
    if (ids.length > 100) throw APIError.invalidArgument("ids must hold at most 100 ids");
    return { accounts: await emailsOf(ids) };
  },
);

export interface AccountByEmailResponse {
  /** The account with this email in any case; left out when none has it. */
  id?: string;
}

/** The account an email names, in any case. */
export const accountIdByEmail = api(
  { expose: false, method: "POST", path: "/internal/users/by-email" },
  async ({ email }: { email: string & MaxLen<254> }): Promise<AccountByEmailResponse> => {
    const id = await accountByEmail(email);
    return id === undefined ? {} : { id };
  },
);
