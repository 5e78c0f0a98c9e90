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
  const asked = new Asked(req, trustProxy);
  for (const rule of rules) if (matches(rule, asked)) return rule;
  return undefined;
}

function matches<Link>(rule: TargetRule<Link>, asked: Asked): boolean {
  if (rule.device !== undefined) return asked.platform() === rule.device;
  if (rule.countries !== undefined) return rule.countries.has(asked.country());
  if (rule.languages !== undefined) {
    const language = asked.language();
    return language !== undefined && rule.languages.has(language);
  }
  if (rule.query !== undefined) {
    const value = asked.query()?.get(rule.query.name);
    return value != null && (rule.query.value === undefined || value === rule.query.value);
  }
  return false;
}

/** What the rules ask of one request, each read at its first question. */
class Asked {
  #platform?: string | null;
  #country?: string;
  #language?: string | null;
  #query?: URLSearchParams | null;

  constructor(
    private readonly req: IncomingMessage,
    private readonly trustProxy: boolean,
  ) {}

  platform(): string | null {
    if (this.#platform === undefined) this.#platform = platformOf(rawHeader(this.req, "user-agent")) ?? null;
    return this.#platform;
  }

  country(): string {
    return (this.#country ??= countryOf(clientAddress(this.req, this.trustProxy)));
  }

  language(): string | undefined {
    if (this.#language === undefined) this.#language = preferredLanguage(rawHeader(this.req, "accept-language")) ?? null;
    return this.#language ?? undefined;
  }

  query(): URLSearchParams | null {
    if (this.#query === undefined) {
      const url = this.req.url ?? "";
      const start = url.indexOf("?");
      this.#query = start === -1 ? null : new URLSearchParams(url.slice(start + 1));
    }
    return this.#query;
  }
}
