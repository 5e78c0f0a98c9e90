import { linkLimits } from "../../limits/links";
import { checkTarget } from "../shortening/target";
import { checkFlag, checkRedirectType, checkStartsAt } from "./options";

/** How a new link redirects, as given (POST /shorten, a bulk item). */
export interface RedirectOptionsInput {
  redirectType?: number;
  forwardQuery?: boolean;
  startsAt?: Date;
  fallbackUrl?: string;
  allowIndexing?: boolean;
  expiresAt?: Date;
}

/** The checked options, with the defaults of url migration 17 for those left out. */
export interface RedirectOptions {
  readonly redirectType: number;
  readonly forwardQuery: boolean;
  readonly startsAt: Date | null;
  readonly fallbackUrl: string | null;
  readonly allowIndexing: boolean;
}

/** Each option checked (400 invalid_argument naming it); the fallback as a target is (banned hosts are the caller's check). */
export function checkRedirectOptions(item: RedirectOptionsInput, baseUrl: string): RedirectOptions {
  return {
    redirectType: item.redirectType === undefined ? 302 : checkRedirectType(item.redirectType),
    forwardQuery: item.forwardQuery === undefined ? true : checkFlag("forwardQuery", item.forwardQuery),
    startsAt: item.startsAt === undefined ? null : checkStartsAt(item.startsAt, item.expiresAt),
    fallbackUrl: item.fallbackUrl === undefined ? null : checkTarget(item.fallbackUrl, baseUrl, linkLimits.config.deniedHosts, "fallbackUrl"),
    allowIndexing: item.allowIndexing === undefined ? false : checkFlag("allowIndexing", item.allowIndexing),
  };
}
