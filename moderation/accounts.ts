import { api, APIError } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { links, users } from "~encore/clients";
import { requireAdmin, type Admin } from "./audit/admin";
import { record, type ActionResult } from "./audit/log";

export interface AccountActionRequest {
  /** The account's user id. */
  id: string;
  /** Why, for the audit log. */
  reason?: string & MaxLen<500>;
}

/**
 * Disables an account: its logins, tokens and API keys are refused from the next
 * request on every instance, and its links are disabled (GET /:code: 404 "link
 * disabled"). An administrator cannot disable its own account (400 failed_precondition).
 * Unknown id: 404. Admin only (else 403).
 */
export const disableAccount = api(
  { expose: true, auth: true, method: "POST", path: "/admin/users/:id/disable" },
  async ({ id, reason }: AccountActionRequest): Promise<ActionResult> => {
    const admin = requireAdmin();
    if (id.toLowerCase() === admin.userID.toLowerCase()) {
      throw APIError.failedPrecondition("an administrator cannot disable their own account");
    }
    return setDisabled(admin, id, true, reason);
  },
);

/**
 * Enables an account again: it may sign in, its keys work, and the links disabled with
 * it redirect again, unless another cause holds. Unknown id: 404. Admin only (else 403).
 */
export const enableAccount = api(
  { expose: true, auth: true, method: "POST", path: "/admin/users/:id/enable" },
  async ({ id, reason }: AccountActionRequest): Promise<ActionResult> => setDisabled(requireAdmin(), id, false, reason),
);

/**
 * The account first, so that a disabled account's requests stop before its links do;
 * both calls change nothing when repeated, so a failure between them is mended by
 * doing the action again.
 */
async function setDisabled(admin: Admin, id: string, disabled: boolean, reason: string | undefined): Promise<ActionResult> {
  const account = await users.setAccountDisabled({ id, disabled });
  const changed = await links.setAccountLinksDisabled({ userID: account.id, disabled });
  return { action: await record(admin, disabled ? "disable_account" : "enable_account", account.id, reason), links: changed.links };
}
