import { useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import { ErrCode, isAPIError } from "../client.gen";
import { Alert } from "../components/Alert";
import { href, navigate } from "../router";
import { useSession } from "../session";
import { chooseWorkspace } from "../workspaces/chosen";

/**
 * Where an invitation link leads (`#/invite/<token>`: after the hash, so the token never
 * reaches a server's access log). Signed out, it sends the visitor to log in or sign up and
 * back here; signed in, one button joins.
 */
export function InvitePage({ token }: { token: string }) {
  const session = useSession();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<{ message: string; member?: boolean } | null>(null);
  const back = `/invite/${token}`;

  const accept = async () => {
    setBusy(true);
    setRefusal(null);
    try {
      const joined = await client.workspaces.acceptInvite({ token });
      chooseWorkspace(joined.id);
      navigate(href.workspace(joined.id));
    } catch (err) {
      if (isAPIError(err) && err.code === ErrCode.NotFound) setRefusal({ message: "This invitation has been used, revoked or has expired. Ask whoever sent it for a new one." });
      else if (isAPIError(err) && err.code === ErrCode.AlreadyExists) setRefusal({ message: "You are already a member of this workspace.", member: true });
      else setRefusal({ message: errorMessage(err) });
      setBusy(false);
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>Join a workspace</h1>
      <p>You have been invited to a team workspace, to share its links.</p>
      {!session ? (
        <p>
          <a href={href.loginThen(back)}>Log in</a> or <a href={href.signupThen(back)}>sign up</a> to accept: you come back here afterwards.
        </p>
      ) : (
        <>
          <p>
            You are signed in as <strong>{session.email}</strong>.
          </p>
          <button type="button" class="primary" disabled={busy} onClick={accept}>
            {busy ? "Joining…" : "Accept"}
          </button>
        </>
      )}
      {refusal && <Alert>{refusal.message}</Alert>}
      {refusal?.member && (
        <p>
          <a href={href.workspaces}>See your workspaces</a>
        </p>
      )}
    </>
  );
}
