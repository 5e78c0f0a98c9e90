import { fromLocalInput, toLocalInput } from "../format";
import { Field } from "./Field";
import { SelectField } from "./SelectField";

// How a link redirects (the API's redirectType, forwardQuery, startsAt, fallbackUrl and
// allowIndexing), as the inputs hold them, and as a new link's fields or a PATCH's changes.

export type RedirectType = "301" | "302" | "307" | "308";

export interface RedirectValues {
  redirectType: RedirectType;
  forwardQuery: boolean;
  startsAt: string;
  fallbackUrl: string;
  allowIndexing: boolean;
}

export const noRedirectOptions: RedirectValues = { redirectType: "302", forwardQuery: true, startsAt: "", fallbackUrl: "", allowIndexing: false };

export const redirectLabels = { redirectType: "Redirect type", startsAt: "Starts", fallbackUrl: "Fallback URL", allowIndexing: "Allow indexing" } as const;

/** These fields of a Link as the API answers them (absent before the API has them). */
export interface LinkRedirectFields {
  redirectType?: number; // a Link answers it as a number; requests send 301, 302, 307 or 308
  forwardQuery?: boolean;
  startsAt?: string;
  fallbackUrl?: string;
  allowIndexing?: boolean;
}

export function redirectValuesOf(link: LinkRedirectFields): RedirectValues {
  return {
    redirectType: String(link.redirectType ?? 302) as RedirectType,
    forwardQuery: link.forwardQuery ?? true,
    startsAt: toLocalInput(link.startsAt),
    fallbackUrl: link.fallbackUrl ?? "",
    allowIndexing: link.allowIndexing ?? false,
  };
}

/** A new link's fields: only those changed from the defaults. */
export function newRedirectOptions(values: RedirectValues): Partial<Omit<LinkRedirectFields, "redirectType">> & { redirectType?: number } {
  const fields: Partial<Omit<LinkRedirectFields, "redirectType">> & { redirectType?: number } = {};
  if (values.redirectType !== "302") fields.redirectType = Number(values.redirectType);
  if (!values.forwardQuery) fields.forwardQuery = false;
  if (values.startsAt !== "") fields.startsAt = fromLocalInput(values.startsAt);
  if (values.fallbackUrl.trim() !== "") fields.fallbackUrl = values.fallbackUrl.trim();
  if (values.allowIndexing) fields.allowIndexing = true;
  return fields;
}

/** A PATCH's changes: only what changed, emptied fields as null. */
export function redirectChanges(before: RedirectValues, after: RedirectValues): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  if (after.redirectType !== before.redirectType) changes.redirectType = Number(after.redirectType);
  if (after.forwardQuery !== before.forwardQuery) changes.forwardQuery = after.forwardQuery;
  if (after.startsAt !== before.startsAt) changes.startsAt = fromLocalInput(after.startsAt) || null;
  if (after.fallbackUrl.trim() !== before.fallbackUrl) changes.fallbackUrl = after.fallbackUrl.trim() || null;
  if (after.allowIndexing !== before.allowIndexing) changes.allowIndexing = after.allowIndexing;
  return changes;
}

const redirectTypes: Record<RedirectType, string> = {
  "302": "302 Found (temporary, the default)",
  "301": "301 Moved permanently",
  "307": "307 Temporary, keeping the method",
  "308": "308 Permanent, keeping the method",
};

interface RedirectOptionsProps {
  idPrefix: string;
  values: RedirectValues;
  onChange: (values: RedirectValues) => void;
  errorOf: (field: keyof typeof redirectLabels) => string | null;
}

export function RedirectOptions({ idPrefix, values, onChange, errorOf }: RedirectOptionsProps) {
  const id = (field: string) => `${idPrefix}${field}`;
  return (
    <fieldset class="redirect-options">
      <legend>Redirect</legend>
      <div class="options-grid">
        <SelectField id={id("redirectType")} label={redirectLabels.redirectType} value={values.redirectType} options={redirectTypes} onChange={(redirectType) => onChange({ ...values, redirectType })} />
        <Field
          id={id("startsAt")}
          label={redirectLabels.startsAt}
          type="datetime-local"
          hint="Your time zone. Before it, the link is not active yet. Empty: at once."
          value={values.startsAt}
          onInput={(e) => onChange({ ...values, startsAt: e.currentTarget.value })}
          error={errorOf("startsAt")}
        />
        <Field
          id={id("fallbackUrl")}
          label={redirectLabels.fallbackUrl}
          type="url"
          inputMode="url"
          hint="Where visitors go once it has expired or used its clicks. Empty: a page saying so."
          value={values.fallbackUrl}
          onInput={(e) => onChange({ ...values, fallbackUrl: e.currentTarget.value })}
          error={errorOf("fallbackUrl")}
        />
        <div>
          <label class="check">
            <input type="checkbox" id={id("forwardQuery")} checked={values.forwardQuery} onChange={(e) => onChange({ ...values, forwardQuery: e.currentTarget.checked })} /> Pass
            the short link's query on to the target
          </label>
          <label class="check">
            <input type="checkbox" id={id("allowIndexing")} checked={values.allowIndexing} onChange={(e) => onChange({ ...values, allowIndexing: e.currentTarget.checked })} />{" "}
            Let search engines index it
          </label>
        </div>
      </div>
      {errorOf("redirectType") && <p class="field-error">{errorOf("redirectType")}</p>}
    </fieldset>
  );
}
