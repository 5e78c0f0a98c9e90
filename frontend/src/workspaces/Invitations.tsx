import { useEffect, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import type { workspaces } from "../client.gen";
import { Alert } from "../components/Alert";
import { ConfirmButton } from "../components/ConfirmButton";
import { Field } from "../components/Field";
import { CopyButton } from "../components/CopyButton";
import { SelectField } from "../components/SelectField";
import { useApiForm } from "../form";
import { formatTime } from "../format";
import { href } from "../router";
import type { Workspace } from "./chosen";
import { manageableRoles, roleMeaning, roleNames, type Role } from "./roles";

/** The address of an invitation: this page's own, with the invite route (InvitePage reads it). */
export function invitationLink(token: string): string {
  return `${location.origin}${location.pathname}${href.invite(token)}`;
}

/** Invitation links for the roles the caller may grant; the pending ones, to revoke. */
export function Invitations({ workspace }: { workspace: Workspace }) {
  const [pending, setPending] = useState<workspaces.Invitation[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<workspaces.NewInvitation | null>(null);
  useEffect(() => {
    client.workspaces.listInvitations(workspace.id).then(
      (res) => setPending(res.invitations),
      (err: unknown) => setError(errorMessage(err)),
    );
  }, [workspace.id]);

  const added = (invitation: workspaces.NewInvitation) => {
    setCreated(invitation);
    const { token: _secret, ...listed } = invitation;
    setPending((shown) => [listed, ...(shown ?? [])]);
  };
  const revoked = (invitation: workspaces.Invitation) => {
    setPending((shown) => shown?.filter((i) => i.id !== invitation.id) ?? null);
    if (created?.id === invitation.id) setCreated(null);
  };

  return (
    <section aria-labelledby="invitations-heading">
      <h2 id="invitations-heading">Invitations</h2>
      <NewInvitationForm workspace={workspace} onCreated={added} />
      {created && (
        <div class="result" role="region" aria-label="New invitation link">
          <p>
            {created.mailedTo ? `Mailed to ${created.mailedTo}; or send` : "Send"} this link to the person joining as {roleNames[created.role].toLowerCase()}. It works once, until{" "}
            <time dateTime={created.expiresAt}>{formatTime(created.expiresAt)}</time>, and is not shown again.
          </p>
          <p class="secret-line">
            <code class="secret invitation-link">{invitationLink(created.token)}</code> <CopyButton text={invitationLink(created.token)} name="Copy the invitation link" />
          </p>
        </div>
      )}
      <h3 id="pending-heading">Pending</h3>
      {error && <Alert>{error}</Alert>}
      {pending && pending.length === 0 && <p>No pending invitations.</p>}
      {pending && pending.length > 0 && (
        <ul class="rows" aria-labelledby="pending-heading">
          {pending.map((invitation) => (
            <li key={invitation.id} class="row">
              <span class="row-title">{roleNames[invitation.role]}</span>
              <span class="meta">
                made <time dateTime={invitation.createdAt}>{formatTime(invitation.createdAt)}</time> · expires{" "}
                <time dateTime={invitation.expiresAt}>{formatTime(invitation.expiresAt)}</time>
              </span>
              <span class="actions">
                <ConfirmButton
                  label="Revoke"
                  name={`Revoke the ${invitation.role} invitation made ${formatTime(invitation.createdAt)}`}
                  question="Revoke this invitation? Its link stops working at once."
                  confirmLabel="Revoke"
                  onConfirm={async () => {
                    await client.workspaces.revoke(workspace.id, invitation.id);
                    revoked(invitation);
                  }}
                />
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function NewInvitationForm({ workspace, onCreated }: { workspace: Workspace; onCreated: (i: workspaces.NewInvitation) => void }) {
  const roles = manageableRoles(workspace.role);
  const [role, setRole] = useState<Role>(roles.includes("member") ? "member" : roles[0]!);
  const [email, setEmail] = useState("");
  const { busy, formError, errorOf, run } = useApiForm({ role: "Role", email: "Email (optional)" });
  const options = Object.fromEntries(roles.map((r) => [r, `${roleNames[r]}: ${roleMeaning[r]}`])) as Record<Role, string>;
  const submit = (event: Event) => {
    event.preventDefault();
    const address = email.trim();
    void run(async () => {
      onCreated(await client.workspaces.invite(workspace.id, address ? { role, email: address } : { role }));
      setEmail("");
    });
  };
  return (
    <form onSubmit={submit} aria-label="New invitation">
      <div class="inline-form">
        <SelectField id="invite-role" label="Role" value={role} options={options} onChange={setRole} />
        <Field
          id="invite-email"
          label="Email (optional)"
          type="email"
          autoComplete="off"
          hint="Given, the link is mailed there too."
          value={email}
          error={errorOf("email")}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          {busy ? "Creating…" : "Create invitation link"}
        </button>
      </div>
      {formError && <Alert>{formError}</Alert>}
    </form>
  );
}
