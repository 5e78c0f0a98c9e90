// Targeting rules: what the links service stores in urls.redirect_rules and the url service
// answers GET /:code by. The first rule that matches a click sends it to its own URL.

/** The kinds of device a rule can ask for: an iPhone, iPad or iPod; an Android device; anything else with a browser. */
export type RuleDevice = "ios" | "android" | "desktop";

export const ruleDevices: readonly RuleDevice[] = ["ios", "android", "desktop"];

/** A query parameter a rule asks for: present, or with exactly this value when one is given. */
export interface RuleQuery {
  name: string;
  value?: string;
}

/** A targeting rule as stored and answered: exactly one condition, and where it sends. */
export interface RedirectRule {
  /** Assigned by the server; kept while the rule is kept, so its clicks stay its own. */
  id: string;
  device?: RuleDevice;
  /** ISO 3166 alpha-2 codes, upper case: the country of the client's address. */
  countries?: string[];
  /** Primary language subtags, lower case ("de"): the visitor's most preferred language. */
  languages?: string[];
  query?: RuleQuery;
  url: string;
}

/** A rule as sent: its id when it is one the link has (kept), else one is assigned. */
export interface RedirectRuleInput {
  id?: string;
  device?: RuleDevice;
  countries?: string[];
  languages?: string[];
  query?: RuleQuery;
  url: string;
}

export const maxRules = 20;
export const maxRuleCountries = 50;
export const maxRuleLanguages = 50;
export const maxRuleQueryName = 100;

/** The conditions a rule may have, of which it has exactly one. */
export const ruleConditions = ["device", "countries", "languages", "query"] as const;

/**
 * A rule's id as stored: a few URL-safe characters, never a tab or line break, since a
 * click's details carry it (visitors/dimensions.ts).
 */
export const ruleIdPattern = /^[A-Za-z0-9_-]{1,16}$/;

/** The stored rules of a row (jsonb, null when none): those well-formed enough to answer by. */
export function storedRules(value: unknown): RedirectRule[] {
  if (!Array.isArray(value)) return [];
  return value.filter(
    (r): r is RedirectRule =>
      typeof r === "object" && r !== null && typeof (r as RedirectRule).id === "string" && typeof (r as RedirectRule).url === "string",
  );
}
