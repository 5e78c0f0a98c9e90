import { api } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { links } from "~encore/clients";
import { requireAdmin } from "./audit/admin";
import { record, type ActionResult } from "./audit/log";

export interface LinkActionRequest {
  /** The link's code, in any case. */
  code: string;
  /** Why, for the audit log. */
  reason?: string & MaxLen<500>;
}

/**
 * Disables a link for abuse: GET /:code answers 404 "link disabled for abuse" (a page
 * saying so to a browser) on every instance at once, and counts no click. Admin only
 * (else 403); unknown or deleted code: 404.
 */
export const disableLink = api(
  { expose: true, auth: true, method: "POST", path: "/admin/links/:code/disable" },
  async ({ code, reason }: LinkActionRequest): Promise<ActionResult> => {
    const admin = requireAdmin();
    const done = await links.disableLinkForAbuse({ code });
    return { action: await record(admin, "disable_link", done.code, reason), links: done.links };
  },
);

/**
 * Ends a link's disabling for abuse. It redirects again, unless its host is banned or
 * its owner's account disabled (then it stays disabled for that). A link disabled only
 * by a ban or with its account: 400 failed_precondition (unban, or enable the account).
 * Admin only (else 403); unknown or deleted code: 404.
 */
export const enableLink = api(
  { expose: true, auth: true, method: "POST", path: "/admin/links/:code/enable" },
  async ({ code, reason }: LinkActionRequest): Promise<ActionResult> => {
    const admin = requireAdmin();
    const done = await links.enableLinkAfterAbuse({ code });
    return { action: await record(admin, "enable_link", done.code, reason), links: done.links };
  },
);
