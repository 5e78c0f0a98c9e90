import { appMeta } from "encore.dev";
import { api, APIError } from "encore.dev/api";
import type { MaxLen } from "encore.dev/validate";
import { domainCheckLimits } from "../limits/domain-checks";
import { callerAllowed } from "./domains/access";
import { fetchToken } from "./domains/check";
import { domainCheckConnectTo } from "./domains/check-config";
import { addDomain, changeDomain, domainOf, domainsOf, markVerified, removeDomain, type Domain } from "./domains/domain-rows";
import { checkHost } from "./domains/host";
import { checkDomainUrl } from "./domains/urls";

// A workspace's custom domains: any member lists them, its owner and admins add, check,
// change and remove them (domains/access.ts). A domain is usable for links once its check
// passed: the instance fetched http://<host>/.well-known/url-shortener/<token> and got the
// token back (url/domain-token.ts answers it), which proves the domain routes here. Each
// url instance keeps the verified domains in memory, told of changes by the domains
// table's url_domains_changed notification (url migration 17).

interface WorkspaceParams {
  /** The workspace's id (a personal workspace's is its account's). */
  id: string;
}

interface DomainParams extends WorkspaceParams {
  host: string;
}

interface NewDomain {
  /** A DNS name, such as go.example.com; an IDN is stored in punycode. No port, no IP address. */
  host: string & MaxLen<300>;
}

interface DomainChanges {
  /** Where GET / on the domain sends visitors (http or https); null clears it (a short page then). */
  rootUrl?: string | null;
  /** Where an unknown code on the domain sends visitors; null clears it (the 404 then). */
  notFoundUrl?: string | null;
}

export interface DomainList {
  /** By host. */
  domains: Domain[];
}

/** Adds a domain, unverified, with its token. 409 already_exists when any workspace has it. */
export const createDomain = api(
  { expose: true, auth: true, method: "POST", path: "/workspaces/:id/domains" },
  async ({ id, host }: WorkspaceParams & NewDomain): Promise<Domain> => {
    const checked = checkHost(host, new URL(appMeta().apiBaseUrl).hostname.toLowerCase());
    const userID = await callerAllowed(id, "manage");
    return addDomain(id, checked, userID);
  },
);

/** The workspace's domains. */
export const listDomains = api(
  { expose: true, auth: true, method: "GET", path: "/workspaces/:id/domains" },
  async ({ id }: WorkspaceParams): Promise<DomainList> => {
    await callerAllowed(id, "read");
    return { domains: await domainsOf(id) };
  },
);

/**
 * Checks that the domain routes here: fetches its checkUrl (no redirect followed, a few
 * seconds at most) and marks it verified when the answer is its token; 400
 * failed_precondition saying what went wrong otherwise (DNS, connection, another answer).
 * A verified domain may be checked again; it stays verified whatever the answer. Each
 * check of a known domain counts against its workspace's limit (limits/domain-checks.ts,
 * 429 past it), passed or not: the fetch costs the same.
 */
export const checkDomain = api(
  { expose: true, auth: true, method: "POST", path: "/workspaces/:id/domains/:host/check" },
  async ({ id, host }: DomainParams): Promise<Domain> => {
    await callerAllowed(id, "manage");
    const domain = await domainOf(id, host);
    await domainCheckLimits.count(id);
    const failure = await fetchToken(domain.host, domain.token, domainCheckConnectTo);
    if (failure !== null) throw APIError.failedPrecondition(`the domain's check failed: ${failure}`);
    return markVerified(id, domain.host);
  },
);

/** Sets where GET / and unknown codes on the domain send visitors. */
export const updateDomain = api(
  { expose: true, auth: true, method: "PATCH", path: "/workspaces/:id/domains/:host" },
  async ({ id, host, rootUrl, notFoundUrl }: DomainParams & DomainChanges): Promise<Domain> => {
    await callerAllowed(id, "manage");
    const domain = await domainOf(id, host);
    const baseUrl = appMeta().apiBaseUrl;
    return changeDomain(id, domain.host, {
      rootUrl: rootUrl == null ? rootUrl : await checkDomainUrl("rootUrl", rootUrl, domain.host, baseUrl),
      notFoundUrl: notFoundUrl == null ? notFoundUrl : await checkDomainUrl("notFoundUrl", notFoundUrl, domain.host, baseUrl),
    });
  },
);

/**
 * Removes a domain no link uses. One with links, deleted ones included until the cleanup
 * removes their rows, is refused with 400 failed_precondition: its links would otherwise
 * answer on another host unasked.
 */
export const deleteDomain = api(
  { expose: true, auth: true, method: "DELETE", path: "/workspaces/:id/domains/:host" },
  async ({ id, host }: DomainParams): Promise<void> => {
    await callerAllowed(id, "manage");
    await removeDomain(id, host);
  },
);
