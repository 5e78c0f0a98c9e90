/** Where a link stands: only an active link redirects and counts clicks. */
export type LinkStatus = "active" | "scheduled" | "expired" | "exhausted" | "deleted" | "disabled";

/** Why a moderator's disabling applies: the link itself, its target host, or its owner's account. */
export type DisabledReason = "abuse" | "host" | "account";

/** The columns of a urls row that decide its status. */
export interface LinkState {
  readonly expiresAt: Date | null;
  readonly maxClicks: number | null;
  readonly clicks: number;
  readonly deletedAt: Date | null;
  readonly disabledAt: Date | null;
  /** Before this instant the link does not redirect yet. */
  readonly startsAt: Date | null;
}

/**
 * A link's status now. When several hold, the one its owner can do least about wins:
 * deleted, then disabled, then expired, then exhausted, then scheduled (not started yet).
 */
export function linkStatus(link: LinkState, now: number = Date.now()): LinkStatus {
  if (link.deletedAt !== null) return "deleted";
  if (link.disabledAt !== null) return "disabled";
  if (link.expiresAt !== null && link.expiresAt.getTime() <= now) return "expired";
  if (link.maxClicks !== null && link.clicks >= link.maxClicks) return "exhausted";
  if (link.startsAt != null && link.startsAt.getTime() > now) return "scheduled";
  return "active";
}

/** What GET /:code says of a link that no longer redirects (the message of its 404, and its page's text). */
export function unavailableMessage(status: Exclude<LinkStatus, "active">, reason: DisabledReason | null = null): string {
  switch (status) {
    case "scheduled":
      return "link not active yet";
    case "expired":
      return "link expired";
    case "exhausted":
      return "link reached its maximum number of clicks";
    case "deleted":
      return "link deleted";
    case "disabled":
      return reason === "account" ? "link disabled" : "link disabled for abuse";
  }
}
