import { useState } from "preact/hooks";
import { errorMessage } from "../api";
import { Alert } from "../components/Alert";
import { Field } from "../components/Field";
import { href, navigate } from "../router";
import { logIn } from "../session";

/**
 * `justSignedUp`: the email of the account the sign-up page just made, to log in with;
 * `then`: the page to go back to once logged in (an invitation), else My links.
 */
export function LoginPage({ justSignedUp, then }: { justSignedUp: string | null; then?: string }) {
  const [email, setEmail] = useState(justSignedUp ?? "");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await logIn(email.trim(), password);
      navigate(then ? `#${then}` : href.links);
    } catch (err) {
      // One message for the whole form: the API does not say which of the two was wrong, on purpose.
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  return (
    <>
      <h1 tabIndex={-1}>Log in</h1>
      {justSignedUp && <p class="notice">Your account is ready. Log in with your password.</p>}
      <form onSubmit={submit} class="stacked-form">
        <Field id="email" label="Email" type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        {error && <Alert>{error}</Alert>}
        <button type="submit" disabled={busy}>
          {busy ? "Logging in…" : "Log in"}
        </button>
      </form>
      <p>
        <a href={href.forgot}>Forgot your password?</a>
      </p>
      <p>
        No account yet? <a href={href.signupThen(then)}>Sign up</a>
      </p>
    </>
  );
}
