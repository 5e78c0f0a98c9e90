import { randomBytes } from "node:crypto";
import { APIError, ErrCode } from "encore.dev/api";
import {
  maxRuleCountries,
  maxRuleLanguages,
  maxRuleQueryName,
  maxRules,
  ruleConditions,
  ruleDevices,
  ruleIdPattern,
  type RedirectRule,
  type RedirectRuleInput,
} from "../../link-rules/redirect-rules";
import { checkTarget } from "../shortening/target";

// The checks of a link's targeting rules (link-rules/redirect-rules.ts), shared by creating
// a link and changing it. Each refusal is 400 invalid_argument naming the rule's place.

const countryShape = /^[A-Za-z]{2}$/;
/** A primary language subtag (RFC 5646): 2 to 3 letters, or 5 to 8 for a registered one. */
const languageShape = /^(?:[A-Za-z]{2,3}|[A-Za-z]{5,8})$/;

/**
 * The rules checked and normalised (countries upper case, languages lower case, URLs as
 * checkTarget makes them), each with its id: the one sent when the link has a rule by it
 * (`knownIds`, so a kept rule keeps its clicks), a new one otherwise.
 */
export function checkRedirectRules(
  rules: readonly RedirectRuleInput[],
  ownBaseUrl: string,
  deniedHosts: readonly string[],
  knownIds: ReadonlySet<string> = new Set(),
): RedirectRule[] {
  return withRuleIds(checkRuleList(rules, ownBaseUrl, deniedHosts), knownIds);
}

/** The rules checked, with the ids as sent ("" for none): for a change, checked before its link is read. */
export function checkRuleList(rules: readonly RedirectRuleInput[], ownBaseUrl: string, deniedHosts: readonly string[]): RedirectRule[] {
  if (!Array.isArray(rules)) throw APIError.invalidArgument("rules must be a list of rules");
  if (rules.length > maxRules) throw APIError.invalidArgument(`rules: at most ${maxRules} rules, got ${rules.length}`);
  return rules.map((rule, i) => ({ id: typeof rule?.id === "string" ? rule.id : "", ...checkRule(rule, `rules[${i}]`, ownBaseUrl, deniedHosts) }));
}

/** The rules with the ids they sent when the link has rules by them (each once), new ones for the others. */
export function withRuleIds(rules: readonly RedirectRule[], knownIds: ReadonlySet<string>): RedirectRule[] {
  const used = new Set<string>();
  return rules.map((rule) => {
    const id = knownIds.has(rule.id) && !used.has(rule.id) ? rule.id : newRuleId(used, knownIds);
    used.add(id);
    return { ...rule, id };
  });
}

function checkRule(rule: RedirectRuleInput, at: string, ownBaseUrl: string, deniedHosts: readonly string[]): Omit<RedirectRule, "id"> {
  if (typeof rule !== "object" || rule === null) throw APIError.invalidArgument(`${at} must be a rule`);
  const given = ruleConditions.filter((name) => rule[name] !== undefined && rule[name] !== null);
  if (given.length !== 1) {
    throw APIError.invalidArgument(`${at} must have exactly one of ${ruleConditions.join(", ")}, got ${given.length === 0 ? "none" : given.join(", ")}`);
  }
  if (typeof rule.url !== "string") throw APIError.invalidArgument(`${at}.url is required`);
  const url = withField(`${at}.url`, () => checkTarget(rule.url, ownBaseUrl, deniedHosts));
  if (rule.device !== undefined && rule.device !== null) {
    if (!ruleDevices.includes(rule.device)) throw APIError.invalidArgument(`${at}.device must be one of ${ruleDevices.join(", ")}`);
    return { device: rule.device, url };
  }
  if (rule.countries !== undefined && rule.countries !== null) {
    return { countries: codes(rule.countries, `${at}.countries`, countryShape, maxRuleCountries, "ISO 3166 alpha-2 country codes such as DE", (c) => c.toUpperCase()), url };
  }
  if (rule.languages !== undefined && rule.languages !== null) {
    return { languages: codes(rule.languages, `${at}.languages`, languageShape, maxRuleLanguages, "primary language subtags such as de", (l) => l.toLowerCase()), url };
  }
  const query = rule.query!;
  if (typeof query !== "object" || typeof query.name !== "string" || query.name.length < 1 || query.name.length > maxRuleQueryName) {
    throw APIError.invalidArgument(`${at}.query.name must be 1 to ${maxRuleQueryName} characters`);
  }
  if (query.value !== undefined && query.value !== null && (typeof query.value !== "string" || query.value.length > maxRuleQueryName)) {
    throw APIError.invalidArgument(`${at}.query.value must be at most ${maxRuleQueryName} characters`);
  }
  return { query: query.value === undefined || query.value === null ? { name: query.name } : { name: query.name, value: query.value }, url };
}

function codes(values: unknown, at: string, shape: RegExp, most: number, what: string, normal: (v: string) => string): string[] {
  if (!Array.isArray(values) || values.length === 0) throw APIError.invalidArgument(`${at} must list 1 to ${most} ${what}`);
  if (values.length > most) throw APIError.invalidArgument(`${at}: at most ${most}, got ${values.length}`);
  const out = new Set<string>();
  values.forEach((v, i) => {
    if (typeof v !== "string" || !shape.test(v)) throw APIError.invalidArgument(`${at}[${i}] must be one of ${what}, got ${JSON.stringify(v)}`);
    out.add(normal(v));
  });
  return [...out];
}

/** checkTarget's refusal, said of the rule's field rather than of the link's url. */
function withField<T>(field: string, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof APIError && err.code === ErrCode.InvalidArgument) {
      throw APIError.invalidArgument(`${field}: ${err.message}`);
    }
    throw err;
  }
}

/** 8 URL-safe random characters, none of the link's. */
function newRuleId(...taken: ReadonlySet<string>[]): string {
  for (;;) {
    const id = randomBytes(6).toString("base64url");
    if (ruleIdPattern.test(id) && taken.every((t) => !t.has(id))) return id;
  }
}
