import { useEffect, useRef, useState } from "preact/hooks";
import { client } from "../api";
import type { links } from "../client.gen";
import { useApiForm } from "../form";
import { fromLocalInput, toLocalInput } from "../format";
import { Alert } from "./Alert";
import { Field } from "./Field";
import { OptionFields, numberValue, optionLabels, type OptionValues } from "./OptionFields";
import { TagEditor } from "./TagEditor";
import { PreviewFields, previewChangesOf, previewLabels, previewValuesOf } from "./PreviewFields";
import { tagNames } from "../tags";
import { UtmBuilder } from "./UtmBuilder";
import { RedirectOptions, redirectChanges, redirectLabels, redirectValuesOf, type LinkRedirectFields, type RedirectValues } from "./RedirectOptions";
import { RulesEditor, draftOf, ruleOf, type RedirectRule, type RuleDraft } from "./RulesEditor";

const labels = { url: "Target URL", password: "Password", tags: "Tags", rules: "Targeting rules", ...previewLabels, ...optionLabels, ...redirectLabels } as const;

/** A Link with the redirect and targeting fields (until the generated client has them). */
type LinkWithRedirects = links.Link & LinkRedirectFields & { rules?: RedirectRule[] };

interface Values extends OptionValues, RedirectValues {
  url: string;
  /** The tags' names, separated by commas. */
  tags: string;
  rules: RuleDraft[];
}

function valuesOf(link: LinkWithRedirects): Values {
  return {
    ...redirectValuesOf(link),
    rules: (link.rules ?? []).map(draftOf),
    url: link.originalUrl,
    expiresAt: toLocalInput(link.expiresAt),
    maxClicks: link.maxClicks?.toString() ?? "",
    title: link.title ?? "",
    tags: link.tags.join(", "),
  };
}

/**
 * Only what was changed goes in the PATCH, emptied fields as null (cleared): an expiry
 * already past, left as it was, is not sent back for the API to refuse as not in the future.
 */
function changesOf(before: Values, after: Values, password: string, removePassword: boolean): links.UpdateLinkRequest {
  const changes: links.UpdateLinkRequest = {};
  if (after.url.trim() !== before.url) changes.url = after.url.trim();
  if (after.expiresAt !== before.expiresAt) changes.expiresAt = fromLocalInput(after.expiresAt) || null;
  if (after.maxClicks !== before.maxClicks) changes.maxClicks = after.maxClicks === "" ? null : numberValue(after.maxClicks);
  if (after.title.trim() !== before.title) changes.title = after.title.trim() || null;
  if (tagNames(after.tags).join(",") !== tagNames(before.tags).join(",")) changes.tags = tagNames(after.tags);
  Object.assign(changes, redirectChanges(before, after));
  const rules = after.rules.map(ruleOf);
  if (JSON.stringify(rules) !== JSON.stringify(before.rules.map(ruleOf))) Object.assign(changes, { rules });
  if (removePassword) changes.password = null;
  else if (password !== "") changes.password = password;
  return changes;
}

export function EditLinkForm({ link, onSaved, onCancel }: { link: LinkWithRedirects; onSaved: (link: links.Link) => void; onCancel: () => void }) {
  const before = valuesOf(link);
  const [values, setValues] = useState(before);
  const [password, setPassword] = useState("");
  const [removePassword, setRemovePassword] = useState(false);
  const [preview, setPreview] = useState(() => previewValuesOf(link.preview));
  const { busy, formError, errorField, errorOf, run } = useApiForm(labels);
  const redirectError = errorField === "rules" || (errorField !== null && errorField in redirectLabels);
  const first = useRef<HTMLDivElement>(null);
  const id = (field: string) => `edit-${link.code}-${field}`;

  useEffect(() => first.current?.querySelector("input")?.focus(), []);

  const submit = (event: Event) => {
    event.preventDefault();
    const changes = { ...changesOf(before, values, password, removePassword), ...previewChangesOf(previewValuesOf(link.preview), preview) };
    if (Object.keys(changes).length === 0) return onCancel();
    void run(async () => onSaved(await client.links.updateLink(link.code, changes)));
  };

  return (
    <form class="edit-link" onSubmit={submit} noValidate aria-label={`Edit ${link.code}`}>
      <div ref={first}>
        <Field
          id={id("url")}
          label="Target URL"
          type="url"
          inputMode="url"
          value={values.url}
          onInput={(e) => setValues({ ...values, url: e.currentTarget.value })}
          error={errorOf("url")}
        />
      </div>
      <UtmBuilder idPrefix={id("")} url={values.url} onChange={(url) => setValues({ ...values, url })} />
      <div class="options-grid">
        <OptionFields idPrefix={id("")} values={values} onChange={(options) => setValues({ ...values, ...options })} errorOf={errorOf} />
        <div>
          {link.hasPassword && (
            <label class="check">
              <input type="checkbox" checked={removePassword} onChange={(e) => setRemovePassword(e.currentTarget.checked)} /> Remove the password
            </label>
          )}
          {!removePassword && (
            <Field
              id={id("password")}
              label={link.hasPassword ? "New password" : "Password"}
              type="password"
              autoComplete="new-password"
              maxLength={128}
              hint={link.hasPassword ? "Empty: keep the current one." : "Visitors must type it to follow the link. Empty: none."}
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
              error={errorOf("password")}
            />
          )}
        </div>
      </div>
      <PreviewFields idPrefix={id("")} values={preview} onChange={setPreview} errorOf={errorOf} />
      <TagEditor id={id("tags")} value={values.tags} onInput={(tags) => setValues({ ...values, tags })} error={errorOf("tags")} />
      <details class="options" open={Boolean(redirectError) || values.rules.length > 0 || undefined}>
        <summary>Redirect and targeting</summary>
        <RedirectOptions idPrefix={id("")} values={values} onChange={(redirect) => setValues({ ...values, ...redirect })} errorOf={errorOf} />
        <RulesEditor idPrefix={id("")} rules={values.rules} onChange={(rules) => setValues({ ...values, rules })} error={errorOf("rules")} />
      </details>
      {formError && <Alert>{formError}</Alert>}
      <div class="actions">
        <button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Save"}
        </button>
        <button type="button" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
