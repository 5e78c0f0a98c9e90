import { useEffect, useRef, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import type { links } from "../client.gen";
import { Alert } from "../components/Alert";
import { ConfirmButton } from "../components/ConfirmButton";
import { CopyButton } from "../components/CopyButton";
import { Field } from "../components/Field";
import { href } from "../router";
import type { Workspace } from "../workspaces/chosen";
import { mayDo } from "../workspaces/roles";

/**
 * A workspace's custom domains: owners and admins add, check, set up and remove them;
 * members read them (links/domains/access.ts, the same roles as managing members).
 */
export function DomainsPage({ workspaceId }: { workspaceId: string }) {
  const [workspace, setWorkspace] = useState<Workspace | null>(null);
  const [domains, setDomains] = useState<links.Domain[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  const reload = () =>
    Promise.all([client.workspaces.getWorkspace(workspaceId), client.links.listDomains(workspaceId)]).then(
      ([w, list]) => (setWorkspace(w), setDomains(list.domains)),
      (err: unknown) => setError(errorMessage(err)),
    );
  useEffect(() => void reload(), [workspaceId]);

  const mayManage = workspace !== null && mayDo(workspace.role, "manage-members");
  const said = (message: string) => {
    setError(null);
    setNotice(message);
    void reload();
    heading.current?.focus();
  };
  const act = async (what: () => Promise<string>) => {
    try {
      said(await what());
    } catch (err) {
      setNotice("");
      setError(errorMessage(err));
    }
  };

  return (
    <>
      <h1 tabIndex={-1} ref={heading}>
        Domains{workspace ? ` of ${workspace.name}` : ""}
      </h1>
      <p>
        Links made on a domain of your own answer there only, as <code>https://your.domain/code</code>. Point the domain at this service, then check
        it. <a href={href.workspace(workspaceId)}>Back to the workspace</a>
      </p>
      {error && <Alert>{error}</Alert>}
      <p role="status" class={notice ? "notice" : "status-line"}>
        {notice}
      </p>
      {mayManage && <NewDomainForm workspaceId={workspaceId} onAdded={(d) => said(`Added ${d.host}. Point it at this service, then check it.`)} />}
      <h2 id="domains-heading">Domains</h2>
      {domains && domains.length === 0 && <p>No domains yet.</p>}
      {domains && domains.length > 0 && (
        <ul class="webhooks" aria-labelledby="domains-heading">
          {domains.map((d) => (
            <li key={d.host} class="webhook">
              <p class="webhook-url">
                <code>{d.host}</code> <span class={d.verified ? "badge" : "badge off"}>{d.verified ? "Verified" : "Not verified"}</span>
              </p>
              {!d.verified && (
                <p class="hint">
                  The check fetches <code>{d.checkUrl}</code> <CopyButton text={d.checkUrl} name={`Copy the check URL of ${d.host}`} />, which must answer{" "}
                  <code>{d.token}</code>: it does once the domain routes to this service.
                </p>
              )}
              {d.verified && (
                <p>
                  <a href={href.domainStats(workspaceId, d.host)}>Clicks on {d.host}</a>
                </p>
              )}
              {d.rootUrl && <p class="hint">Its home page sends visitors to {d.rootUrl}.</p>}
              {d.notFoundUrl && <p class="hint">Unknown codes send visitors to {d.notFoundUrl}.</p>}
              {mayManage && (
                <div class="actions">
                  <button type="button" class="secondary" onClick={() => void act(async () => (await client.links.checkDomain(workspaceId, d.host), `${d.host} is verified.`))}>
                    {d.verified ? "Check again" : "Check"}
                  </button>
                  <ConfirmButton
                    label="Remove"
                    name={`Remove ${d.host}`}
                    question={`Remove ${d.host}? Links on it must be deleted first.`}
                    confirmLabel="Remove"
                    onConfirm={() => act(async () => (await client.links.deleteDomain(workspaceId, d.host), `Removed ${d.host}.`))}
                  />
                </div>
              )}
              {mayManage && <DomainUrlsForm workspaceId={workspaceId} domain={d} onSaved={() => said(`Saved the addresses of ${d.host}.`)} />}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function NewDomainForm({ workspaceId, onAdded }: { workspaceId: string; onAdded: (d: links.Domain) => void }) {
  const [host, setHost] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      onAdded(await client.links.createDomain(workspaceId, { host: host.trim() }));
      setHost("");
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <form onSubmit={submit} noValidate class="inline-form">
      <Field id="domain-host" label="Domain" autoComplete="off" placeholder="go.example.com" value={host} onInput={(e) => setHost(e.currentTarget.value)} error={error ?? undefined} />
      <button type="submit">Add domain</button>
    </form>
  );
}

function DomainUrlsForm({ workspaceId, domain, onSaved }: { workspaceId: string; domain: links.Domain; onSaved: () => void }) {
  const [rootUrl, setRootUrl] = useState(domain.rootUrl ?? "");
  const [notFoundUrl, setNotFoundUrl] = useState(domain.notFoundUrl ?? "");
  const [error, setError] = useState<string | null>(null);
  const id = domain.host.replace(/[^a-z0-9]/g, "-");
  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      await client.links.updateDomain(workspaceId, domain.host, { rootUrl: rootUrl.trim() || null, notFoundUrl: notFoundUrl.trim() || null });
      setError(null);
      onSaved();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <details class="options">
      <summary>Home page and unknown codes</summary>
      <form onSubmit={submit} noValidate>
        <Field id={`root-${id}`} label="Home page goes to" type="url" hint="Empty: a short page naming the domain." value={rootUrl} onInput={(e) => setRootUrl(e.currentTarget.value)} />
        <Field id={`not-found-${id}`} label="Unknown codes go to" type="url" hint="Empty: the 404 page." value={notFoundUrl} onInput={(e) => setNotFoundUrl(e.currentTarget.value)} />
        {error && <Alert>{error}</Alert>}
        <button type="submit">Save</button>
      </form>
    </details>
  );
}
