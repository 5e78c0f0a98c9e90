import { api } from "encore.dev/api";
import { domainsNow } from "./link-answers/on-host";

interface HostParams {
  /** A request's host (link-rules/request-host.ts). */
  host: string;
}

export interface DomainRoot {
  /** Whether the host is a verified custom domain. */
  domain: boolean;
  /** Where its / sends visitors, when it says. */
  rootUrl?: string;
}

/**
 * What / is on `host`: the web service's GET / (web/root.ts) asks, and serves the front end
 * unless the host is a custom domain. Answered from this instance's set of domains, kept in
 * memory (domains/domain-set.ts). Internal.
 */
export const domainRoot = api({ expose: false, method: "GET", path: "/internal/domain-root" }, async ({ host }: HostParams): Promise<DomainRoot> => {
  const domain = (await domainsNow()).get(host.toLowerCase());
  if (domain === undefined) return { domain: false };
  return domain.rootUrl === null ? { domain: true } : { domain: true, rootUrl: domain.rootUrl };
});
