import { useEffect, useRef, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import type { workspaces } from "../client.gen";
import { Alert } from "../components/Alert";
import { ConfirmButton } from "../components/ConfirmButton";
import { Field } from "../components/Field";
import { useApiForm } from "../form";
import { href, navigate } from "../router";
import { chooseWorkspace, type Workspace } from "../workspaces/chosen";
import { Invitations } from "../workspaces/Invitations";
import { Members } from "../workspaces/Members";
import { mayDo, roleNames } from "../workspaces/roles";

interface Loaded {
  workspace: Workspace;
  members: workspaces.Member[];
  /** The caller's account id: their personal workspace's. */
  me: string;
}

async function load(id: string): Promise<Loaded> {
  const [workspace, { members }, { workspaces: mine }] = await Promise.all([
    client.workspaces.getWorkspace(id),
    client.workspaces.listMembers(id),
    client.workspaces.listWorkspaces(),
  ]);
  return { workspace, members, me: mine.find((w) => w.personal)!.id };
}

/** One workspace: its name, members and invitations, with what the caller's role lets them do. */
export function WorkspacePage({ id }: { id: string }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState("");
  const heading = useRef<HTMLHeadingElement>(null);
  const reload = () => load(id).then(setLoaded, (err: unknown) => setError(errorMessage(err)));
  useEffect(() => {
    setLoaded(null);
    setError(null);
    void reload();
  }, [id]);

  const done = (message: string) => {
    setNotice(message);
    void reload();
    heading.current?.focus();
  };

  const w = loaded?.workspace;
  return (
    <>
      <h1 tabIndex={-1} ref={heading}>
        {w ? w.name : "Workspace"}
      </h1>
      {error && <Alert>{error}</Alert>}
      {!loaded && !error && <p aria-live="polite">Loading…</p>}
      <p role="status" class={notice ? "notice" : "status-line"}>
        {notice}
      </p>
      {loaded && w && (
        <>
          <p>
            {w.personal ? "Your personal workspace: its links are yours alone." : "A team workspace."} Your role: <strong>{roleNames[w.role]}</strong>.{" "}
            <a href={href.links} onClick={() => chooseWorkspace(w.id)}>
              See its links
            </a>
            {w.role !== "viewer" && (
              <>
                {" · "}
                <a href={href.webhooks(w.id)}>Webhooks</a>
              </>
            )}
            {" · "}
            <a href={href.domains(w.id)}>Domains</a>
          </p>
          {mayDo(w.role, "rename") && <RenameForm workspace={w} onRenamed={(r) => setLoaded({ ...loaded, workspace: r })} />}
          {!w.personal && <Members workspace={w} members={loaded.members} me={loaded.me} onChanged={done} />}
          {!w.personal && mayDo(w.role, "manage-members") && <Invitations workspace={w} />}
          {!w.personal && <Leave workspace={w} me={loaded.me} />}
        </>
      )}
    </>
  );
}

function RenameForm({ workspace, onRenamed }: { workspace: Workspace; onRenamed: (w: Workspace) => void }) {
  const [name, setName] = useState(workspace.name);
  const [saved, setSaved] = useState("");
  const { busy, formError, errorOf, run } = useApiForm({ name: "Name" });
  const submit = (event: Event) => {
    event.preventDefault();
    setSaved("");
    void run(async () => {
      const renamed = await client.workspaces.renameWorkspace(workspace.id, { name: name.trim() });
      onRenamed(renamed);
      setSaved("Renamed.");
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Rename the workspace">
      <div class="inline-form">
        <Field id="rename" label="Name" maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} error={errorOf("name")} />
        <button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Rename"}
        </button>
      </div>
      {formError && <Alert>{formError}</Alert>}
      <p role="status" class="status-line">
        {saved}
      </p>
    </form>
  );
}

/** Leaving (anyone but the owner), or deleting (the owner). */
function Leave({ workspace, me }: { workspace: Workspace; me: string }) {
  const gone = () => {
    // The links page's choice falls back to the personal workspace by itself; say so at once.
    chooseWorkspace(me);
    navigate(href.workspaces);
  };
  return (
    <section aria-labelledby="leave-heading">
      <h2 id="leave-heading">{workspace.role === "owner" ? "Delete" : "Leave"}</h2>
      {workspace.role === "owner" ? (
        <>
          <p>Deleting the workspace removes its members and invitations. To leave it instead, make another member its owner first.</p>
          <div class="actions">
            <ConfirmButton
              label="Delete workspace"
              name={`Delete ${workspace.name}`}
              question={`Delete “${workspace.name}”? Its members lose access at once. This cannot be undone.`}
              confirmLabel="Delete"
              onConfirm={async () => {
                await client.workspaces.removeWorkspace(workspace.id);
                gone();
              }}
            />
          </div>
        </>
      ) : (
        <div class="actions">
          <ConfirmButton
            label="Leave workspace"
            name={`Leave ${workspace.name}`}
            question={`Leave “${workspace.name}”? You lose access to its links at once; only a new invitation brings you back.`}
            confirmLabel="Leave"
            onConfirm={async () => {
              await client.workspaces.removeFromWorkspace(workspace.id, me);
              gone();
            }}
          />
        </div>
      )}
    </section>
  );
}
