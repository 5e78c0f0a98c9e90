import { useEffect, useRef, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import type { access, users } from "../client.gen";
import { Alert } from "../components/Alert";
import { ConfirmButton } from "../components/ConfirmButton";
import { CopyButton } from "../components/CopyButton";
import { Field } from "../components/Field";
import { useApiForm } from "../form";
import { formatTime, fromLocalInput } from "../format";
import { useWorkspaceChoice, workspaceLabel, type Workspace } from "../workspaces/chosen";

const labels = { name: "Name", expiresAt: "Expires", scopes: "What it may do", workspaceId: "Workspace" } as const;

/** Each scope as the page names it, in the order the API lists them. */
const scopeLabels: Record<access.ApiKeyScope, string> = {
  "links:read": "Read links",
  "links:write": "Create, change and delete links",
  "analytics:read": "Read click analytics",
};
const allScopes = Object.keys(scopeLabels) as access.ApiKeyScope[];

/** Keys for programs: made here, shown whole once, listed by their prefix, revoked at once. */
export function KeysPage() {
  const [keys, setKeys] = useState<users.ApiKeyInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const [created, setCreated] = useState<users.CreatedApiKey | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const { workspaces, chosen } = useWorkspaceChoice();

  useEffect(() => {
    client.users.listApiKeys().then(
      (res) => setKeys(res.keys),
      (err: unknown) => setError(errorMessage(err)),
    );
  }, []);

  const added = (key: users.CreatedApiKey) => {
    setCreated(key);
    setNotice("");
    const { key: _secret, ...listed } = key;
    setKeys((shown) => [listed, ...(shown ?? [])]);
  };
  const revoked = (key: users.ApiKeyInfo) => {
    setKeys((shown) => shown?.filter((k) => k.id !== key.id) ?? null);
    if (created?.id === key.id) setCreated(null);
    setNotice(`Revoked ${key.name}.`);
    heading.current?.focus();
  };

  return (
    <>
      <h1 tabIndex={-1} ref={heading}>
        API keys
      </h1>
      <p>
        A program sends a key as <code>Authorization: Bearer usk_…</code> or <code>X-API-Key: usk_…</code> and acts as you for what you let
        it do with the links of one workspace and their analytics, as far as your role there allows. No key can manage your account or your
        keys.
      </p>
      {workspaces && chosen && <NewKeyForm workspaces={workspaces} initial={chosen.id} onCreated={added} />}
      {created && <CreatedKey created={created} />}
      <h2 id="keys-heading">Your keys</h2>
      <p role="status" class={notice ? "notice" : "status-line"}>
        {notice}
      </p>
      {error && <Alert>{error}</Alert>}
      {keys && keys.length === 0 && <p>No keys yet.</p>}
      {keys && keys.length > 0 && <KeyTable keys={keys} workspaces={workspaces ?? []} onRevoked={revoked} />}
    </>
  );
}

/** `initial`: the workspace the other pages work in, where a new key most likely belongs. */
function NewKeyForm({ workspaces, initial, onCreated }: { workspaces: Workspace[]; initial: string; onCreated: (key: users.CreatedApiKey) => void }) {
  const [name, setName] = useState("");
  const [workspaceId, setWorkspaceId] = useState(initial);
  const [expiresAt, setExpiresAt] = useState("");
  const [scopes, setScopes] = useState<access.ApiKeyScope[]>(allScopes);
  const { busy, formError, errorOf, run } = useApiForm(labels);
  const scopesError = errorOf("scopes");
  const toggle = (scope: access.ApiKeyScope, on: boolean) =>
    setScopes((chosen) => allScopes.filter((s) => (s === scope ? on : chosen.includes(s))));

  const submit = async (event: Event) => {
    event.preventDefault();
    const done = await run(async () =>
      onCreated(await client.users.createApiKey({ name: name.trim(), expiresAt: fromLocalInput(expiresAt) || undefined, scopes, workspaceId })),
    );
    if (!done) return;
    setName("");
    setExpiresAt("");
    setScopes(allScopes);
  };

  return (
    <form onSubmit={submit} noValidate class="stacked-form" aria-labelledby="new-key-heading">
      <h2 id="new-key-heading">New key</h2>
      <Field id="key-name" label="Name" hint="What uses it, to tell your keys apart." maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} error={errorOf("name")} />
      <Field
        id="key-expires"
        label="Expires"
        type="datetime-local"
        hint="Your time zone. Empty: it works until you revoke it."
        value={expiresAt}
        onInput={(e) => setExpiresAt(e.currentTarget.value)}
        error={errorOf("expiresAt")}
      />
      <div class="field">
        <label for="key-workspace">Workspace</label>
        <select id="key-workspace" name="key-workspace" aria-describedby="key-workspace-hint" value={workspaceId} onChange={(e) => setWorkspaceId(e.currentTarget.value)}>
          {workspaces.map((w) => (
            <option key={w.id} value={w.id}>
              {workspaceLabel(w)}
            </option>
          ))}
        </select>
        <p class="hint" id="key-workspace-hint">
          The key reaches this workspace's links only, with your role there.
        </p>
      </div>
      <fieldset class="field scopes" aria-describedby={scopesError ? "key-scopes-error" : undefined}>
        <legend>What it may do</legend>
        {allScopes.map((scope) => (
          <label class="check" key={scope}>
            <input type="checkbox" name="key-scopes" value={scope} checked={scopes.includes(scope)} onChange={(e) => toggle(scope, e.currentTarget.checked)} />{" "}
            {scopeLabels[scope]}
          </label>
        ))}
        {scopesError && (
          <p class="field-error" id="key-scopes-error">
            {scopesError}
          </p>
        )}
      </fieldset>
      {formError && <Alert>{formError}</Alert>}
      <button type="submit" disabled={busy}>
        {busy ? "Creating…" : "Create key"}
      </button>
    </form>
  );
}

function CreatedKey({ created }: { created: users.CreatedApiKey }) {
  const section = useRef<HTMLElement>(null);
  // The one thing to act on now: focus there, so a screen reader reads the warning with it.
  useEffect(() => section.current?.focus(), [created.id]);
  return (
    <section class="result" aria-labelledby="created-key-heading" tabIndex={-1} ref={section}>
      <h2 id="created-key-heading">Your new key “{created.name}”</h2>
      <p class="secret-line">
        <code class="secret">{created.key}</code> <CopyButton text={created.key} name="Copy the key" />
      </p>
      <p>It may: {created.scopes.map((scope) => scopeLabels[scope].toLowerCase()).join("; ")}.</p>
      <p class="notice">Copy it now: it will not be shown again. Only its hash is kept, so nobody can read it back, not even you.</p>
    </section>
  );
}

function KeyTable({ keys, workspaces, onRevoked }: { keys: users.ApiKeyInfo[]; workspaces: Workspace[]; onRevoked: (key: users.ApiKeyInfo) => void }) {
  // A key of a workspace the account has since left stays listed, to be revoked.
  const workspaceOf = (id: string) => {
    const w = workspaces.find((candidate) => candidate.id === id);
    return w ? workspaceLabel(w) : "a workspace you left";
  };
  const when = (iso: string | undefined, none: string) => (iso ? <time dateTime={iso}>{formatTime(iso)}</time> : none);
  return (
    <div class="table-scroll">
      <table class="keys" aria-labelledby="keys-heading">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Workspace</th>
            <th scope="col">May</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr key={key.id}>
              <th scope="row">{key.name}</th>
              <td data-label="Key">
                <code>usk_{key.prefix}…</code>
              </td>
              <td data-label="Workspace">{workspaceOf(key.workspaceId)}</td>
              <td data-label="May">{key.scopes.map((scope) => scopeLabels[scope]).join(", ")}</td>
              <td data-label="Created">{when(key.createdAt, "")}</td>
              <td data-label="Last used">{when(key.lastUsedAt, "Never")}</td>
              <td data-label="Expires">
                {/* Expired keys stay listed until revoked: say so rather than show a date to compare. */}
                {key.expiresAt && Date.parse(key.expiresAt) <= Date.now() && "Expired "}
                {when(key.expiresAt, "Never")}
              </td>
              <td>
                <ConfirmButton
                  label="Revoke"
                  name={`Revoke ${key.name}`}
                  question={`Revoke “${key.name}”? Programs using it are refused from now on.`}
                  confirmLabel="Revoke"
                  onConfirm={async () => {
                    await client.users.revokeApiKey(key.id);
                    onRevoked(key);
                  }}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
