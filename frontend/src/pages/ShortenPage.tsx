import { useEffect, useState } from "preact/hooks";
import { client } from "../api";
import type { links } from "../client.gen";
import { Alert } from "../components/Alert";
import { CopyButton } from "../components/CopyButton";
import { Field } from "../components/Field";
import { WorkspacePicker } from "../components/WorkspacePicker";
import { OptionFields, newLinkOptions, noOptions, optionLabels, type OptionValues } from "../components/OptionFields";
import { PreviewFetchNotice, PreviewFields, newLinkPreview, noPreviewValues, previewLabels } from "../components/PreviewFields";
import { useApiForm } from "../form";
import { UtmBuilder } from "../components/UtmBuilder";
import { RedirectOptions, newRedirectOptions, noRedirectOptions, redirectLabels, type RedirectValues } from "../components/RedirectOptions";
import { RulesEditor, ruleOf, type RuleDraft } from "../components/RulesEditor";
import { href } from "../router";
import { useSession } from "../session";
import { useWorkspaceChoice } from "../workspaces/chosen";
import { mayDo } from "../workspaces/roles";

const labels = { url: "Long URL", alias: "Alias", password: "Password", domain: "Domain", rules: "Targeting rules", ...previewLabels, ...optionLabels, ...redirectLabels } as const;

export function ShortenPage() {
  const session = useSession();
  const choice = useWorkspaceChoice(Boolean(session));
  const workspace = choice.chosen;
  const [target, setTarget] = useState("");
  const [alias, setAlias] = useState("");
  const [password, setPassword] = useState("");
  const [options, setOptions] = useState<OptionValues>(noOptions);
  const [preview, setPreview] = useState(noPreviewValues);
  const [optionsOpen, setOptionsOpen] = useState(false);
  const [redirect, setRedirect] = useState<RedirectValues>(noRedirectOptions);
  const [rules, setRules] = useState<RuleDraft[]>([]);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const [result, setResult] = useState<links.ShortenResponse | null>(null);
  const [domain, setDomain] = useState("");
  const domains = useVerifiedDomains(session ? workspace?.id : undefined);
  const { busy, formError, errorField, errorOf, run } = useApiForm(labels, "alias");
  // A refusal of an option is shown next to it: the options open to show it.
  useEffect(() => {
    if (errorField === "rules" || (errorField !== null && errorField in redirectLabels)) setAdvancedOpen(true);
    else if (errorField && errorField !== "url") setOptionsOpen(true);
  }, [errorField]);

  const submit = async (event: Event) => {
    event.preventDefault();
    const longUrl = target.trim();
    // Options are for signed-in users only: the API refuses an alias from anyone else.
    const request = session
      ? {
          url: longUrl,
          alias: alias.trim() || undefined,
          password: password || undefined,
          ...newLinkOptions(options),
          ...newLinkPreview(preview),
          ...newRedirectOptions(redirect),
          ...(rules.length > 0 ? { rules: rules.map(ruleOf) } : {}),
          workspaceId: workspace?.id,
          domain: domains.includes(domain) ? domain : undefined,
        }
      : { url: longUrl };
    // The redirect and targeting fields are the API's, not yet the generated client's.
    const done = await run(async () => setResult(await client.links.shorten(request as links.ShortenRequest)));
    if (!done) return setResult(null);
    // Each link its own: the next one must not take this alias or password by accident.
    setAlias("");
    setPassword("");
    setOptions(noOptions);
    setPreview(noPreviewValues);
    setRedirect(noRedirectOptions);
    setRules([]);
  };

  return (
    <>
      <h1 tabIndex={-1}>Shorten a link</h1>
      {session && <WorkspacePicker choice={choice} />}
      {workspace && !mayDo(workspace.role, "write") ? (
        <p class="notice">
          You are a viewer in {workspace.name}: you can read its links but not add any. Choose another workspace to shorten a link.
        </p>
      ) : (
        // noValidate: the API's messages (shown next to the field) say more than the browser's.
        <form onSubmit={submit} noValidate>
          <div class="inline-form">
            <Field
              id="url"
              label="Long URL"
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder="https://example.com/a/long/page"
              value={target}
              onInput={(e) => setTarget(e.currentTarget.value)}
              error={errorOf("url")}
            />
            <button type="submit" disabled={busy}>
              {busy ? "Shortening…" : "Shorten"}
            </button>
          </div>
          {domains.length > 0 && (
            <p class="domain-picker">
              <label for="domain">Domain</label>{" "}
              <select id="domain" value={domain} onChange={(e) => setDomain(e.currentTarget.value)}>
                <option value="">{new URL(location.href).host} (this service)</option>
                {domains.map((host) => (
                  <option key={host} value={host}>
                    {host}
                  </option>
                ))}
              </select>
              {errorOf("domain") && <span class="field-error"> {errorOf("domain")}</span>}
            </p>
          )}
          <UtmBuilder idPrefix="" url={target} onChange={setTarget} />
          {session && (
            <details class="options" open={optionsOpen} onToggle={(e) => setOptionsOpen(e.currentTarget.open)}>
              <summary>Options</summary>
              <div class="options-grid">
                <Field
                  id="alias"
                  label="Alias"
                  autoComplete="off"
                  hint="Your own code instead of a random one: 3 to 64 letters, digits, - and _."
                  maxLength={64}
                  value={alias}
                  onInput={(e) => setAlias(e.currentTarget.value)}
                  error={errorOf("alias")}
                />
                <Field
                  id="link-password"
                  label="Password"
                  type="password"
                  autoComplete="new-password"
                  hint="Visitors must type it to follow the link. Empty: none."
                  maxLength={128}
                  value={password}
                  onInput={(e) => setPassword(e.currentTarget.value)}
                  error={errorOf("password")}
                />
                <OptionFields idPrefix="" values={options} onChange={setOptions} errorOf={errorOf} />
              </div>
              <PreviewFields idPrefix="new-" values={preview} onChange={setPreview} errorOf={errorOf} />
            </details>
          )}
          {session && (
            <details class="options" open={advancedOpen} onToggle={(e) => setAdvancedOpen(e.currentTarget.open)}>
              <summary>Advanced: redirect and targeting</summary>
              <RedirectOptions idPrefix="" values={redirect} onChange={setRedirect} errorOf={errorOf} />
              <RulesEditor idPrefix="" rules={rules} onChange={setRules} error={errorOf("rules")} />
            </details>
          )}
        </form>
      )}
      {formError && <Alert>{formError}</Alert>}
      {result && <ShortLink result={result} />}
    </>
  );
}

function ShortLink({ result }: { result: links.ShortenResponse }) {
  return (
    <section class="result" aria-labelledby="result-heading">
      <h2 id="result-heading">Your short link</h2>
      <p class="short-link">
        <a href={result.shortUrl}>{result.shortUrl}</a> <CopyButton text={result.shortUrl} />
      </p>
      <PreviewFetchNotice fetch={result.previewFetch} />
      {result.qrCodeUrl && <img class="qr" src={result.qrCodeUrl} alt={`QR code for ${result.shortUrl}`} width={164} height={164} />}
      <p>
        <a href={href.stats(result.code)}>See its clicks</a>
      </p>
    </section>
  );
}

/** The verified custom domains of the workspace new links go into; none until read, or when it cannot be. */
function useVerifiedDomains(workspaceId: string | undefined): string[] {
  const [hosts, setHosts] = useState<string[]>([]);
  useEffect(() => {
    setHosts([]);
    if (workspaceId === undefined) return;
    let current = true;
    client.links.listDomains(workspaceId).then(
      (list) => current && setHosts(list.domains.filter((d) => d.verified).map((d) => d.host)),
      () => {},
    );
    return () => void (current = false);
  }, [workspaceId]);
  return hosts;
}
