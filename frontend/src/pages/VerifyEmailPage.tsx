import { useEffect, useState } from "preact/hooks";
import { client, errorMessage } from "../api";
import { Alert } from "../components/Alert";
import { href } from "../router";

/** Confirms an email with the token of a mailed link (#/verify/<token>), as soon as it opens. */
export function VerifyEmailPage({ token }: { token: string }) {
  const [state, setState] = useState<"confirming" | "confirmed" | { error: string }>("confirming");
  useEffect(() => {
    client.users.verifyEmail({ token }).then(
      () => setState("confirmed"),
      (err: unknown) => setState({ error: errorMessage(err) }),
    );
  }, [token]);

  return (
    <>
      <h1 tabIndex={-1}>Confirm your email</h1>
      {state === "confirming" && <p aria-live="polite">Confirming…</p>}
      {state === "confirmed" && (
        <p class="notice" role="status">
          Your email is confirmed. <a href={href.login}>Log in</a>.
        </p>
      )}
      {typeof state === "object" && (
        <Alert>
          {state.error} <a href={href.login}>Log in</a> to ask for a new link.
        </Alert>
      )}
    </>
  );
}
