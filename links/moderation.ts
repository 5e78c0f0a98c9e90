import { api } from "encore.dev/api";
import { disableAccountLinks, enableAccountLinks } from "./moderation/accounts";
import { ban, bans, hostToBan, unban, type Ban } from "./moderation/bans";
import { disableLink, enableLink } from "./moderation/disabling";

// The url service's side of moderation, for the moderation service (moderation/), which
// checks that its caller is an administrator and records each action. Internal: no
// client reaches these. A disabled link answers GET /:code as a 404 saying so; the
// changes reach every instance's cache at once (links/moderation/disabling.ts).

export interface LinkCode {
  code: string;
}

export interface ModeratedLink {
  /** The code as stored (a code is matched regardless of case). */
  code: string;
  /** How many links this changed to redirecting or not (0 when it already was so). */
  links: number;
}

/** Disables a link for abuse (disabled_reason 'abuse'). Unknown or deleted: 404. */
export const disableLinkForAbuse = api(
  { expose: false, method: "POST", path: "/internal/moderation/links/:code/disable" },
  async ({ code }: LinkCode): Promise<ModeratedLink> => {
    const { code: stored, disabled } = await disableLink(code);
    return { code: stored, links: disabled };
  },
);

/**
 * Ends a link's disabling for abuse; it stays disabled while its host is banned or its
 * owner's account disabled. One disabled for those alone: 400 failed_precondition.
 */
export const enableLinkAfterAbuse = api(
  { expose: false, method: "POST", path: "/internal/moderation/links/:code/enable" },
  async ({ code }: LinkCode): Promise<ModeratedLink> => {
    const { code: stored, enabled } = await enableLink(code);
    return { code: stored, links: enabled };
  },
);

export interface BannedHostList {
  /** Newest ban first. */
  hosts: Ban[];
}

/** The banned target hosts. */
export const bannedHostList = api(
  { expose: false, method: "GET", path: "/internal/moderation/hosts" },
  async (): Promise<BannedHostList> => ({ hosts: await bans() }),
);

export interface BanHostRequest {
  host: string;
  reason?: string;
  /** The administrator's user id. */
  bannedBy: string;
}

export interface ModeratedHost {
  /** The host as stored: normalised as hosts are compared (case, IDN, trailing dot). */
  host: string;
  /** How many links this disabled, or enabled again. */
  links: number;
}

/**
 * Bans a target host and its subdomains: new links to them are refused (400) on every
 * instance at once, existing ones disabled (reason 'host'). Not a host name, or a
 * top-level domain alone: 400. Banned already: 409.
 */
export const banHost = api(
  { expose: false, method: "POST", path: "/internal/moderation/hosts" },
  async ({ host, reason, bannedBy }: BanHostRequest): Promise<ModeratedHost> => {
    const normalised = hostToBan(host);
    return { host: normalised, links: await ban(normalised, reason, bannedBy) };
  },
);

/** Lifts a ban: the links it disabled redirect again unless another cause holds. Not banned: 404. */
export const unbanHost = api(
  { expose: false, method: "DELETE", path: "/internal/moderation/hosts/:host" },
  async ({ host }: { host: string }): Promise<ModeratedHost> => {
    const normalised = hostToBan(host);
    return { host: normalised, links: await unban(normalised) };
  },
);

export interface AccountLinksRequest {
  userID: string;
  /** true: the account was disabled; false: it was enabled again. */
  disabled: boolean;
}

export interface ModeratedAccount {
  /** How many of the account's links this disabled, or enabled again. */
  links: number;
}

/** Disables an account's links (reason 'account'), or enables them again unless another cause holds. */
export const setAccountLinksDisabled = api(
  { expose: false, method: "POST", path: "/internal/moderation/accounts/:userID" },
  async ({ userID, disabled }: AccountLinksRequest): Promise<ModeratedAccount> => ({
    links: disabled ? await disableAccountLinks(userID) : await enableAccountLinks(userID),
  }),
);
