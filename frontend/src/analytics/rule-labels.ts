// How a link's targeting rules read in its analytics: the API counts clicks by rule id,
// which means nothing to people; the link's rules say what each id matches and where it sends.
import type { link_rules } from "../client.gen";

export const deviceNames = { ios: "iOS", android: "Android", desktop: "Desktop" } as const;

/** "Country DE", "Countries DE, AT": the word agrees with the list. */
const listed = (one: string, many: string, values: string[]) => `${values.length === 1 ? one : many} ${values.join(", ")}`;

/** What a rule matches: "iOS", "Countries DE, AT", "Language fr", "Query src=qr". */
export function ruleCondition(rule: link_rules.RedirectRule): string {
  if (rule.device) return deviceNames[rule.device];
  if (rule.countries) return listed("Country", "Countries", rule.countries);
  if (rule.languages) return listed("Language", "Languages", rule.languages);
  const query = rule.query ?? { name: "" };
  return `Query ${query.value === undefined ? query.name : `${query.name}=${query.value}`}`;
}

/**
 * A rule id of the analytics for people: what the link's rule with that id matches and
 * where it sends. `rules` null: the reader may not read the link's rules (not its owner), so the id is all there is.
 */
export function ruleLabel(id: string, rules: link_rules.RedirectRule[] | null): string {
  if (!rules) return `Rule ${id}`;
  const rule = rules.find((r) => r.id === id);
  // Its clicks outlive it: the link was edited since.
  return rule ? `${ruleCondition(rule)} → ${rule.url}` : `Removed rule (${id})`;
}
