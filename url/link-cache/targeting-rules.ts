import { storedRules, type RuleDevice } from "../../link-rules/redirect-rules";

/**
 * A targeting rule as the lookup prepares it once per cached link (not once per request):
 * its lists as sets, and its target as a ready answer (`link`, made like the link's own).
 * Exactly one condition is set.
 */
export interface TargetRule<Link> {
  readonly id: string;
  readonly device?: RuleDevice;
  readonly countries?: ReadonlySet<string>;
  readonly languages?: ReadonlySet<string>;
  readonly query?: { readonly name: string; readonly value?: string };
  readonly link: Link;
}

/** The rules of a row's redirect_rules (jsonb), prepared; null when it has none. `linkTo` makes a rule's answer. */
export function compileTargeting<Link>(stored: unknown, linkTo: (url: string) => Link): readonly TargetRule<Link>[] | null {
  const rules = storedRules(stored);
  if (rules.length === 0) return null;
  return rules.map((r) => {
    const link = linkTo(r.url);
    if (r.device !== undefined) return { id: r.id, device: r.device, link };
    if (r.countries !== undefined) return { id: r.id, countries: new Set(r.countries), link };
    if (r.languages !== undefined) return { id: r.id, languages: new Set(r.languages), link };
    if (r.query !== undefined) return { id: r.id, query: { name: r.query.name, value: r.query.value }, link };
    return { id: r.id, link }; // a rule with no condition (never stored: records/redirect-rules.ts) matches nothing
  });
}
