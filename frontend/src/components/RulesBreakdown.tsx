import type { analytics, link_rules } from "../client.gen";
import { ruleLabel } from "../analytics/rule-labels";
import { BreakdownTable, type BreakdownRow } from "./BreakdownTable";

/**
 * Where a link's targeting rules sent its clicks: each rule the link has, in its order (the
 * order they are tried in), a rule that sent none too; then the ids of rules removed since
 * that still hold clicks; then the clicks no rule sent. Nothing for a link that has no rules
 * and whose clicks no rule sent. `rules` null: the reader may not read them, so rules show by id.
 */
export function RulesBreakdown({ breakdown, rules }: { breakdown: analytics.Breakdown; rules: link_rules.RedirectRule[] | null }) {
  const counted = new Map(breakdown.top.map((v) => [v.value, v]));
  const listed = (rules ?? []).map((r) => r.id);
  const ids = [...listed, ...breakdown.top.map((v) => v.value).filter((id) => !listed.includes(id))];
  if (ids.length === 0) return null;
  const rows: BreakdownRow[] = ids.map((id) => ({ key: id, label: ruleLabel(id, rules), humans: counted.get(id)?.humans ?? 0, bots: counted.get(id)?.bots ?? 0 }));
  rows.push({ key: "", label: "Link's own URL", humans: breakdown.other.humans, bots: breakdown.other.bots, other: true });
  return <BreakdownTable id="rules" title="Targeting rules" column="Rule" rows={rows} wide />;
}
