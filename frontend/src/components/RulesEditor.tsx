import { deviceNames } from "../analytics/rule-labels";
import { Field } from "./Field";
import { SelectField } from "./SelectField";

// Targeting rules: an ordered list, the first that matches a visitor sends them to its URL
// instead of the link's target. Each rule has one condition: the device, countries,
// languages, or a query parameter of the short link.

export type RuleKind = "device" | "countries" | "languages" | "query";

/** A rule as its inputs hold it. */
export interface RuleDraft {
  /** The server's id of a saved rule, kept on edit; none for a new one. */
  id?: string;
  kind: RuleKind;
  /** ios | android | desktop; "DE, AT"; "de, fr"; "name" or "name=value". */
  value: string;
  url: string;
}

/** A rule as the API takes and answers it. */
export interface RedirectRule {
  id?: string;
  device?: "ios" | "android" | "desktop";
  countries?: string[];
  languages?: string[];
  query?: { name: string; value?: string };
  url: string;
}

export const maxRules = 20;

const list = (value: string) =>
  value
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** The API's rule of a draft: codes in the cases the API takes (countries upper, languages lower). */
export function ruleOf({ id, kind, value, url }: RuleDraft): RedirectRule {
  const rule: RedirectRule = id === undefined ? { url: url.trim() } : { id, url: url.trim() };
  if (kind === "device") rule.device = value as RedirectRule["device"];
  else if (kind === "countries") rule.countries = list(value).map((c) => c.toUpperCase());
  else if (kind === "languages") rule.languages = list(value).map((l) => l.toLowerCase());
  else {
    const at = value.indexOf("=");
    rule.query = at === -1 ? { name: value.trim() } : { name: value.slice(0, at).trim(), value: value.slice(at + 1) };
  }
  return rule;
}

export function draftOf(rule: RedirectRule): RuleDraft {
  const base = { id: rule.id, url: rule.url };
  if (rule.device) return { ...base, kind: "device", value: rule.device };
  if (rule.countries) return { ...base, kind: "countries", value: rule.countries.join(", ") };
  if (rule.languages) return { ...base, kind: "languages", value: rule.languages.join(", ") };
  const q = rule.query ?? { name: "" };
  return { ...base, kind: "query", value: q.value === undefined ? q.name : `${q.name}=${q.value}` };
}

const kinds: Record<RuleKind, string> = { device: "Device is", countries: "Country is one of", languages: "Language is one of", query: "Query has" };
const hints: Record<Exclude<RuleKind, "device">, string> = {
  countries: "Two-letter codes, separated by commas: DE, AT, CH.",
  languages: "Language codes, separated by commas: de, fr.",
  query: "A parameter of the short link: name, or name=value.",
};

interface RulesEditorProps {
  idPrefix: string;
  rules: RuleDraft[];
  onChange: (rules: RuleDraft[]) => void;
  error: string | null;
}

export function RulesEditor({ idPrefix, rules, onChange, error }: RulesEditorProps) {
  const update = (i: number, change: Partial<RuleDraft>) => onChange(rules.map((r, j) => (j === i ? { ...r, ...change } : r)));
  const move = (i: number, by: -1 | 1) => {
    const next = [...rules];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    onChange(next);
  };
  const remove = (i: number) => onChange(rules.filter((_, j) => j !== i));
  return (
    <fieldset class="rules-editor">
      <legend>Targeting rules</legend>
      <p class="hint">Checked in order: the first rule that matches a visitor sends them to its URL; none matching, the link's own target.</p>
      <ol class="rules">
        {rules.map((rule, i) => {
          const id = (field: string) => `${idPrefix}rule-${i}-${field}`;
          const n = i + 1;
          return (
            <li key={i} class="rule" aria-label={`Rule ${n}`}>
              <div class="options-grid">
                <SelectField
                  id={id("kind")}
                  label={`Rule ${n}: condition`}
                  value={rule.kind}
                  options={kinds}
                  onChange={(kind) => update(i, { kind, value: kind === "device" ? "ios" : "" })}
                />
                {rule.kind === "device" ? (
                  <SelectField id={id("value")} label={`Rule ${n}: device`} value={rule.value as keyof typeof deviceNames} options={deviceNames} onChange={(value) => update(i, { value })} />
                ) : (
                  <Field id={id("value")} label={`Rule ${n}: value`} hint={hints[rule.kind]} autoComplete="off" value={rule.value} onInput={(e) => update(i, { value: e.currentTarget.value })} />
                )}
                <Field id={id("url")} label={`Rule ${n}: target URL`} type="url" inputMode="url" value={rule.url} onInput={(e) => update(i, { url: e.currentTarget.value })} />
              </div>
              <div class="rule-actions">
                <button type="button" aria-label={`Move rule ${n} up`} disabled={i === 0} onClick={() => move(i, -1)}>
                  ↑ Up
                </button>
                <button type="button" aria-label={`Move rule ${n} down`} disabled={i === rules.length - 1} onClick={() => move(i, 1)}>
                  ↓ Down
                </button>
                <button type="button" aria-label={`Remove rule ${n}`} onClick={() => remove(i)}>
                  Remove
                </button>
              </div>
            </li>
          );
        })}
      </ol>
      {error && <p class="field-error">{error}</p>}
      <button type="button" disabled={rules.length >= maxRules} onClick={() => onChange([...rules, { kind: "device", value: "ios", url: "" }])}>
        Add a rule
      </button>
    </fieldset>
  );
}
