import { api, APIError, type Query } from "encore.dev/api";
import type { Max, Min } from "encore.dev/validate";
import { requireAdmin } from "./audit/admin";
import { page, type ModerationAction } from "./audit/log";

export interface ActionsRequest {
  /** Actions per page, 1 to 100; default 20. */
  limit?: Query<number & Min<1> & Max<100>>;
  /** Where to continue: the `nextCursor` of the previous page. */
  cursor?: Query<string>;
}

export interface ActionsResponse {
  /** Newest first. */
  actions: ModerationAction[];
  /** Present when there are more: pass it as `cursor` for the next page. */
  nextCursor?: string;
}

const defaultLimit = 20;

/** The audit log: who did what to which link, host or account, why, and when. Admin only (else 403). */
export const listActions = api(
  { expose: true, auth: true, method: "GET", path: "/admin/actions" },
  async ({ limit = defaultLimit, cursor }: ActionsRequest): Promise<ActionsResponse> => {
    requireAdmin();
    if (!Number.isInteger(limit)) throw APIError.invalidArgument(`limit must be a whole number, got ${limit}`);
    return page(limit, cursor);
  },
);
