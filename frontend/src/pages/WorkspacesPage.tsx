import { useEffect, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import { Alert } from "../components/Alert";
import { Field } from "../components/Field";
import { useApiForm } from "../form";
import { href, navigate } from "../router";
import { chooseWorkspace, type Workspace } from "../workspaces/chosen";
import { roleNames } from "../workspaces/roles";

/** The caller's workspaces with their role in each, and a form for a new team workspace. */
export function WorkspacesPage() {
  const [workspaces, setWorkspaces] = useState<Workspace[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    client.workspaces.listWorkspaces().then(
      (res) => setWorkspaces(res.workspaces),
      (err: unknown) => setError(errorMessage(err)),
    );
  }, []);

  return (
    <>
      <h1 tabIndex={-1}>Workspaces</h1>
      <p>Links belong to a workspace. Your personal one is yours alone; a team workspace shares its links with the people you invite.</p>
      {error && <Alert>{error}</Alert>}
      {!workspaces && !error && <p aria-live="polite">Loading…</p>}
      {workspaces && (
        <ul class="rows" aria-label="Your workspaces">
          {workspaces.map((w) => (
            <li key={w.id} class="row">
              <a class="row-title" href={href.workspace(w.id)}>
                {w.name}
              </a>
              <span class="meta">
                {w.personal ? "Personal" : "Team"} · your role: {roleNames[w.role]}
              </span>
              <span class="actions">
                <a
                  href={href.links}
                  onClick={() => chooseWorkspace(w.id)}
                  aria-label={`Links of ${w.name}`}
                >
                  links
                </a>
              </span>
            </li>
          ))}
        </ul>
      )}
      <NewWorkspaceForm />
    </>
  );
}

function NewWorkspaceForm() {
  const [name, setName] = useState("");
  const { busy, formError, errorOf, run } = useApiForm({ name: "Name" });
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const created = await client.workspaces.createWorkspace({ name: name.trim() });
      navigate(href.workspace(created.id));
    });
  };
  return (
    <form onSubmit={submit} noValidate class="stacked-form" aria-labelledby="new-workspace-heading">
      <h2 id="new-workspace-heading">New team workspace</h2>
      <Field id="workspace-name" label="Name" maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} error={errorOf("name")} />
      {formError && <Alert>{formError}</Alert>}
      <button type="submit" disabled={busy}>
        {busy ? "Creating…" : "Create workspace"}
      </button>
    </form>
  );
}
