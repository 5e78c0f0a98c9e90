import { db } from "../db";
import { DomainSet, type CustomDomain } from "./domain-set";

/** This instance's verified custom domains (domain-set.ts), kept by the url service's listening connection (link-cache/notifications.ts). */
export const customDomains = new DomainSet(() =>
  db.rawQueryAll<CustomDomain>(
    `SELECT host, root_url AS "rootUrl", not_found_url AS "notFoundUrl" FROM domains WHERE verified_at IS NOT NULL`,
  ),
);
