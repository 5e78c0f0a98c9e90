import type { IncomingMessage } from "node:http";
import type { TargetRule } from "../link-cache/targeting-rules";
import { platformOf } from "../../visitors/platforms";
import { preferredLanguage } from "../../visitors/languages";
import { countryOf } from "../../visitors/countries";
import { clientAddress } from "../../limits/client-address";
import { rawHeader } from "./http";

/**
 * The first of a link's targeting rules that `req` matches; undefined when none does (the
 * link's own URL answers). What a rule asks of the request is read only when a rule asks
 * for it, once: the platform from User-Agent (visitors/platforms.ts), the country of the
 * client's address as analytics has it (`trustProxy` deciding the address), the preferred
 * language of Accept-Language, the query string's parameters. No database read.
 */
export function matchingRule<Link>(req: IncomingMessage, rules: readonly TargetRule<Link>[], trustProxy: boolean): TargetRule<Link> | undefined {
  // Plain locals rather than an object of lazy getters: this runs on every click of such a link.
  let platform: string | null | undefined;
  let country: string | undefined;
  let language: string | null | undefined;
  let query: URLSearchParams | null | undefined;
  for (const rule of rules) {
    if (rule.device !== undefined) {
      if (platform === undefined) platform = platformOf(rawHeader(req, "user-agent")) ?? null;
      if (platform === rule.device) return rule;
    } else if (rule.countries !== undefined) {
      country ??= countryOf(clientAddress(req, trustProxy));
      if (rule.countries.has(country)) return rule;
    } else if (rule.languages !== undefined) {
      if (language === undefined) language = preferredLanguage(rawHeader(req, "accept-language")) ?? null;
      if (language !== null && rule.languages.has(language)) return rule;
    } else if (rule.query !== undefined) {
      if (query === undefined) query = queryOf(req.url ?? "");
      const value = query?.get(rule.query.name);
      if (value != null && (rule.query.value === undefined || value === rule.query.value)) return rule;
    }
  }
  return undefined;
}

/** The query string's parameters; null without one (no parsing for a request that sent none). */
function queryOf(url: string): URLSearchParams | null {
  const start = url.indexOf("?");
  return start === -1 ? null : new URLSearchParams(url.slice(start + 1));
}
